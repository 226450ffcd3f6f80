/// A FIFO lock for actor methods that must stay exclusive across suspension points (an SQLite transaction that
/// awaits a refresh). Owned by an actor; not Sendable on its own.
struct AsyncLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Whether the caller must wait; when true, append the continuation with ``enqueue(_:)``.
    mutating func tryAcquire() -> Bool {
        guard !held else { return false }
        held = true
        return true
    }

    mutating func enqueue(_ continuation: CheckedContinuation<Void, Never>) { waiters.append(continuation) }

    /// Hands the lock to the next waiter, or frees it.
    mutating func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
