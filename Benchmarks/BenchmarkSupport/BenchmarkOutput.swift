import Foundation

/// The seconds per measurement: the first command-line argument, 1 by default.
public var measurementSeconds: Double {
    CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 1.0
}

/// Prints `  <name padded to 46 columns> <statistics summary>`.
public func printLine(_ name: String, _ statistics: BenchmarkStatistics) {
    print("  \(name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(statistics.summary)")
}
