import Dispatch
import Foundation
import SSOKitWorkloads

// Runs one workload ITERATIONS times after WARMUP calls, for valgrind: check.sh runs it with N and 2N iterations and
// takes the difference, so that setup and warm-up cancel out.
//
//   instruction-count --list [--gated]       the workloads' names (--gated: those check.sh counts)
//   instruction-count NAME ITERATIONS [WARMUP] (WARMUP: 20 by default)
//   instruction-count --calibrate NAME       an N whose calls take about 50 ms here (natively)

let usage = "usage: instruction-count --list [--gated] | --calibrate NAME | NAME ITERATIONS [WARMUP]\n"

/// The number of calls of `operation` that take about 50 ms, between 10 and 50,000.
func calibrate(_ operation: Workload.Operation) async throws -> Int {
    for _ in 0..<20 { try await operation() }
    let clock = ContinuousClock()
    let start = clock.now
    var calls = 0
    while start.duration(to: clock.now) < .milliseconds(50) {
        try await operation()
        calls += 1
    }
    return min(50_000, max(10, calls))
}

/// Lists or runs, off the main actor.
func run(_ arguments: [String]) async throws -> Int32 {
    if arguments.first == "--list" {
        let gatedOnly = arguments.contains("--gated")
        for workload in Workloads.all where !gatedOnly || workload.gated {
            if workload.needsPostgres && !Workloads.postgresAvailable { continue }
            print(workload.name)
        }
        return 0
    }
    if arguments.first == "--calibrate", arguments.count == 2, let workload = Workloads.named(arguments[1]) {
        let operation = try await workload.prepare()
        print(try await calibrate(operation))
        await operation.teardown?()
        return 0
    }
    guard arguments.count >= 2, let workload = Workloads.named(arguments[0]), let iterations = Int(arguments[1]),
        iterations >= 0
    else {
        FileHandle.standardError.write(Data(usage.utf8))
        return 64
    }
    let warmup = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
    let operation = try await workload.prepare()
    for _ in 0..<warmup { try await operation() }
    for _ in 0..<iterations { try await operation() }
    await operation.teardown?()
    return 0
}

/// The exit status of `run`, set by the task that runs it.
final class ExitStatus: @unchecked Sendable {
    var value: Int32 = 70
}

// The entry point is synchronous and waits for a task: valgrind 3.19 crashes in an `async` main (libdispatch's
// signal thread under dispatch_main), not in a task on the global executor.
let arguments = Array(CommandLine.arguments.dropFirst())
let status = ExitStatus()
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        status.value = try await run(arguments)
    } catch {
        FileHandle.standardError.write(Data("instruction-count: \(error)\n".utf8))
    }
    finished.signal()
}
finished.wait()
exit(status.value)
