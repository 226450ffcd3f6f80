import Synchronization

/// A one-shot latch between tasks: ``wait()`` suspends until ``open()`` has been called, and returns at once after.
/// For tests that hold a callback (an evaluator, a refresh, a transaction) at a known point.
public final class AsyncLatch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Creates a closed latch.
    public init() {}

    /// Suspends until the latch is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Opens the latch for good, resuming every waiter.
    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
