import Foundation
import Synchronization

/// Starting and awaiting child processes without blocking a thread of Swift's cooperative pool.
enum ChildProcess {
    /// Starts `process`, runs `afterLaunch` (e.g. to write its standard input), and returns once it has exited; after
    /// `timeout` seconds it is killed with SIGKILL.
    static func run(_ process: Process, timeout: TimeInterval, afterLaunch: () throws -> Void = {}) async throws {
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        let killer = Task {
            try await Task.sleep(for: .seconds(timeout))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        defer { killer.cancel() }
        do {
            try afterLaunch()
        } catch {
            kill(process.processIdentifier, SIGKILL)
            for await _ in exited.stream {}
            throw error
        }
        for await _ in exited.stream {}
    }

    /// Polls `condition` every 20 ms (without blocking a thread) until it holds, the process ends or `timeout`
    /// seconds pass; returns whether it held.
    static func wait(
        for process: Process, timeout: TimeInterval, until condition: () -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while !condition() {
            guard process.isRunning, ContinuousClock.now < deadline else { return condition() }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
