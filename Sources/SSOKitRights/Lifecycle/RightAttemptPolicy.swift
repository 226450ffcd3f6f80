import Foundation

/// How failed authorizations are limited: a few free attempts, then an exponential backoff, then a permanent lock.
public struct RightAttemptPolicy: Sendable, Hashable {
    /// Failures allowed before any delay.
    public var freeAttempts: Int
    /// The delay after the first failure beyond the free ones; doubled after each further failure.
    public var baseDelay: TimeInterval
    /// The longest delay.
    public var maximumDelay: TimeInterval
    /// After this many consecutive failures the right is locked for good (it must be deleted and created again).
    public var attemptLimit: Int

    /// 3 free attempts, then 1 s doubling up to 15 min; locked for good after 10 failures.
    public static let standard = RightAttemptPolicy(
        freeAttempts: 3, baseDelay: 1, maximumDelay: 900, attemptLimit: 10)

    /// Creates a policy.
    public init(freeAttempts: Int, baseDelay: TimeInterval, maximumDelay: TimeInterval, attemptLimit: Int) {
        self.freeAttempts = freeAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.attemptLimit = attemptLimit
    }

    /// The counters after one more failed attempt at `now`. The end of a backoff is a whole second (rounded up), so
    /// that it reads back from every store exactly as written.
    func afterFailure(_ attempts: RightAttemptCounters, now: Date) -> RightAttemptCounters {
        let failures = attempts.failedAttempts + 1
        if failures >= attemptLimit {
            return RightAttemptCounters(failedAttempts: failures, lockedUntil: .distantFuture)
        }
        guard failures > freeAttempts else { return RightAttemptCounters(failedAttempts: failures, lockedUntil: nil) }
        let exponent = min(failures - freeAttempts - 1, 30)
        let delay = min(baseDelay * Double(1 << exponent), maximumDelay)
        let end = (now.timeIntervalSince1970 + delay).rounded(.up)
        return RightAttemptCounters(failedAttempts: failures, lockedUntil: Date(timeIntervalSince1970: end))
    }

    /// Throws `locked_out` when `attempts` forbid trying at `now`.
    func check(_ attempts: RightAttemptCounters, now: Date) throws(RightError) {
        if attempts.failedAttempts >= attemptLimit {
            throw RightError(
                .lockedOut, "too many failed attempts: the right is locked for good and must be created again")
        }
        if let lockedUntil = attempts.lockedUntil, lockedUntil > now {
            let seconds = Int(lockedUntil.timeIntervalSince(now).rounded(.up))
            throw RightError(.lockedOut, "too many failed attempts: try again in \(seconds) s")
        }
    }
}

/// Failed attempts and the end of the current backoff.
struct RightAttemptCounters: Sendable, Hashable {
    var failedAttempts: Int
    var lockedUntil: Date?

    static let none = RightAttemptCounters(failedAttempts: 0, lockedUntil: nil)
}
