import Synchronization

/// Counts calls across tasks (uses of a refresh token, token-endpoint calls).
public final class CallCounter: Sendable {
    private let count = Mutex(0)

    /// Creates a counter at zero.
    public init() {}

    /// Counts one call and returns its serial number, from 1.
    public func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }

    /// How many calls were counted.
    public var value: Int { count.withLock { $0 } }
}
