import Foundation

/// Slows password guessing across login forms: after 10 wrong passwords for one username within 5 minutes, that
/// username is refused until the 5 minutes are over.
actor LoginThrottle {
    static let limit = 10
    static let window: TimeInterval = 300

    private var failures = ExpiringMap<Int>(capacity: 10_000)

    /// Whether `username` is locked out now.
    func isLocked(_ username: String, now: Date) -> Bool {
        (failures.value(username, now: now) ?? 0) >= Self.limit
    }

    /// Counts a wrong password; the window starts at the first.
    func recordFailure(_ username: String, now: Date) {
        if failures.value(username, now: now) == nil {
            _ = failures.set(1, key: username, expiry: now.addingTimeInterval(Self.window), now: now)
        } else {
            failures.update(username, now: now) { $0 += 1 }
        }
    }

    /// Forgets the failures after a successful login.
    func recordSuccess(_ username: String, now: Date) {
        failures.remove(username, now: now)
    }
}
