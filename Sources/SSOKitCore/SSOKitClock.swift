import Foundation

/// The source of the current time for every validity check, injectable so tests and `--now` fix it.
public protocol SSOKitClock: Sendable {
    /// The current time.
    var now: Date { get }
}

/// The system's wall clock.
public struct SystemClock: SSOKitClock {
    /// Creates the system clock.
    public init() {}
    /// The current time.
    public var now: Date { Date() }
}

/// A clock stopped at one instant.
public struct FixedClock: SSOKitClock {
    /// The instant this clock always returns.
    public var now: Date
    /// Creates a clock stopped at `now`.
    public init(_ now: Date) { self.now = now }
    /// Creates a clock stopped at `unixSeconds` since 1970.
    public init(unixSeconds: Int64) { self.now = Date(timeIntervalSince1970: TimeInterval(unixSeconds)) }
}
