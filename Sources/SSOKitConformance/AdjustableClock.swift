import Foundation
import SSOKitCore
import Synchronization

/// A clock that a test moves by hand.
public final class AdjustableClock: SSOKitClock, Sendable {
    private let seconds: Mutex<TimeInterval>

    /// Starts at `start` (default 2026-01-01T00:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        seconds = Mutex(start.timeIntervalSince1970)
    }

    /// The current test time.
    public var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }

    /// Moves the clock by `delta` seconds.
    public func advance(_ delta: TimeInterval) { seconds.withLock { $0 += delta } }
}
