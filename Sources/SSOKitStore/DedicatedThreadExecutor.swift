import Foundation

/// A serial executor that runs its jobs, one at a time and in order, on a thread of its own rather than on Swift's
/// cooperative pool. An actor whose methods block (SQLite waiting up to its busy timeout for another process's write
/// lock, an fsync on a slow disk) runs on one, so that the wait holds this thread only and every other task keeps
/// the pool's few threads.
///
/// The thread ends after the executor is released and its last job has run.
final class DedicatedThreadExecutor: SerialExecutor {
    private let queue = WorkQueue()

    /// Starts the thread, named `name` for debuggers and `ps -L`.
    init(name: String) {
        let queue = queue
        let thread = Thread { queue.runUntilFinished() }
        thread.name = name
        thread.start()
    }

    deinit { queue.finish() }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.push { job.runSynchronously(on: executor) }
    }

    /// Runs `body` on the thread and hands its result to the awaiting caller, whose own thread is free meanwhile.
    func run<Value: Sendable>(_ body: @escaping @Sendable () throws(TokenCacheError) -> Value)
        async throws(TokenCacheError) -> Value
    {
        let outcome: Result<Value, TokenCacheError> = await withCheckedContinuation { continuation in
            queue.push { continuation.resume(returning: Result { () throws(TokenCacheError) in try body() }) }
        }
        return try outcome.get()
    }

}

/// The executor's jobs, handed from any thread to the executor's own.
private final class WorkQueue: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var pending: [@Sendable () -> Void] = []
    private var finished = false

    func push(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        pending.append(work)
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// The thread's body: runs work as it arrives, returns once finished and drained.
    func runUntilFinished() {
        while true {
            condition.lock()
            while pending.isEmpty && !finished { condition.wait() }
            let batch = pending
            pending.removeAll()
            let done = finished && batch.isEmpty
            condition.unlock()
            if done { return }
            for work in batch { work() }
        }
    }
}
