import Benchmark
import Dispatch
import SSOKitWorkloads

/// What every suite measures: wall time, throughput, mallocs and instructions per operation. `instructions` needs
/// hardware performance counters (`perf_event_open`); where there are none (a VM) package-benchmark reads 0, and
/// `check.sh` counts instructions under valgrind instead.
let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .instructions, .cpuTotal]

/// Registers the package-benchmark benchmarks of `suite`: one per workload, named as the workload without its
/// suite. Each workload's setup runs before its first measured call, its teardown after the last; the PostgreSQL
/// workloads are skipped unless `SSOKIT_BENCH_POSTGRES_URL` is set.
public func registerBenchmarks(suite: String) {
    for workload in Workloads.suite(suite) {
        let prepared = PreparedOperation()
        let configuration = Benchmark.Configuration(
            metrics: workload.slow ? metrics + [.peakMemoryResident] : metrics,
            warmupIterations: workload.slow ? 1 : 10,
            maxDuration: .seconds(workload.slow ? 10 : 1),
            maxIterations: workload.slow ? 5 : 1_000_000,
            skip: workload.needsPostgres && !Workloads.postgresAvailable)
        Benchmark(
            String(workload.name.dropFirst(suite.count + 1)), configuration: configuration,
            closure: { benchmark in
                guard let operation = prepared.operation else { return benchmark.error("\(workload.name): no setup") }
                do {
                    try measure(operation, benchmark)
                } catch {
                    benchmark.error("\(workload.name) failed: \(error)")
                }
            },
            setup: { prepared.operation = try await workload.prepare() },
            teardown: {
                await prepared.operation?.teardown?()
                prepared.operation = nil
            })
    }
}

/// Runs `operation` for each of the benchmark's scaled iterations. An asynchronous operation runs in a task on
/// its own, with the measurement started inside it (as package-benchmark does for its async closures), so that
/// the bridge is not measured.
private func measure(_ operation: Workload.Operation, _ benchmark: Benchmark) throws {
    switch operation.body {
    case .sync(let body):
        for _ in benchmark.scaledIterations { try body() }
    case .async(let body):
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        let run = UncheckedRun(body: body, benchmark: benchmark)
        Task.detached {
            do {
                try await run.measured()
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }
}

/// The state a benchmark's setup prepares for its closure; package-benchmark runs setup, closure and teardown one
/// after the other, never at once.
private final class PreparedOperation: @unchecked Sendable {
    var operation: Workload.Operation?
}

/// An asynchronous body and its benchmark, handed to the task that measures it while the caller waits.
private struct UncheckedRun: @unchecked Sendable {
    let body: () async throws -> Void
    let benchmark: Benchmark

    func measured() async throws {
        benchmark.startMeasurement()
        defer { benchmark.stopMeasurement() }
        for _ in benchmark.scaledIterations { try await body() }
    }
}

/// The error of a task the caller waits for.
private final class Outcome: @unchecked Sendable {
    var error: (any Error)?
}
