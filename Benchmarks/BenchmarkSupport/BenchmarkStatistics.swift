/// Throughput and latency percentiles of one measured run.
public struct BenchmarkStatistics: Sendable {
    /// Calls timed.
    public let operations: Int
    /// Wall time of the timed calls.
    public let seconds: Double
    /// Each call's latency, ascending.
    public let sortedNanoseconds: [Int64]

    /// Statistics of `latencies` measured over `seconds`.
    public init(latencies: [Int64], seconds: Double) {
        operations = latencies.count
        self.seconds = seconds
        sortedNanoseconds = latencies.sorted()
    }

    /// Calls per second.
    public var opsPerSecond: Double { Double(operations) / seconds }

    /// The latency at `fraction` (0.5 = median), in microseconds.
    public func percentile(_ fraction: Double) -> Double {
        guard !sortedNanoseconds.isEmpty else { return 0 }
        let index = min(sortedNanoseconds.count - 1, Int(Double(sortedNanoseconds.count) * fraction))
        return Double(sortedNanoseconds[index]) / 1000
    }

    /// `N ops/s  p50 …  p90 …  p99 …`.
    public var summary: String {
        let rate = String(Int(opsPerSecond.rounded()))
        return "\(rate) ops/s  p50 \(format(percentile(0.5))) µs  p90 \(format(percentile(0.9))) µs  "
            + "p99 \(format(percentile(0.99))) µs"
    }

    private func format(_ value: Double) -> String {
        String(Double(Int(value * 10)) / 10)
    }
}

/// Times `body` one call at a time for about `seconds`, after a warm-up.
public func measure(seconds: Double, _ body: () async throws -> Void) async rethrows -> BenchmarkStatistics {
    let clock = ContinuousClock()
    for _ in 0..<200 { try await body() }
    var latencies: [Int64] = []
    latencies.reserveCapacity(200_000)
    let start = clock.now
    let end = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
    var now = start
    while now < end {
        let before = now
        try await body()
        now = clock.now
        let elapsed = before.duration(to: now)
        latencies.append(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
    let total = start.duration(to: now)
    let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
    return BenchmarkStatistics(latencies: latencies, seconds: seconds)
}
