import Foundation
import Synchronization

/// One stream for the state changes of every right in the process (the counterpart of LocalAuthentication's
/// didBecomeAuthorized / didBecomeUnauthorized notifications).
public enum RightChanges {
    private static let observers = Mutex<[UUID: AsyncStream<RightStateChange>.Continuation]>([:])

    /// A stream of every later change of any right. It ends when the caller stops iterating.
    public static func stream() -> AsyncStream<RightStateChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<RightStateChange>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { _ in _ = observers.withLock { $0.removeValue(forKey: id) } }
        observers.withLock { $0[id] = continuation }
        return stream
    }

    static func post(_ change: RightStateChange) {
        let current = observers.withLock { Array($0.values) }
        for continuation in current { continuation.yield(change) }
    }
}
