import Foundation
import SSOKitCore

/// Remembers assertion IDs until their NotOnOrAfter so that a captured Response cannot be posted twice.
///
/// SSOKitTokenCache provides a persistent one; ``InMemoryAssertionReplayGuard`` serves a single process.
public protocol SAMLAssertionReplayGuard: Sendable {
    /// Records `assertionID` from `issuer` until `expiry`. Returns false when it was already recorded (a replay).
    func recordFirstUse(assertionID: String, issuer: String, expiry: Date) async throws -> Bool
}

/// A process-local replay guard with a bounded number of live entries.
public actor InMemoryAssertionReplayGuard: SAMLAssertionReplayGuard {
    private var seen: ExpiringEntries<Void>
    private let clock: any SSOKitClock

    /// Creates a guard holding at most `capacity` unexpired IDs. When full, new IDs are refused rather than live
    /// ones evicted, so that a flood cannot flush the guard.
    public init(capacity: Int = 100_000, clock: any SSOKitClock = SystemClock()) {
        self.seen = ExpiringEntries(capacity: capacity)
        self.clock = clock
    }

    /// Records the ID; false when seen before or when the guard is full.
    public func recordFirstUse(assertionID: String, issuer: String, expiry: Date) async throws -> Bool {
        seen.insertIfAbsent(
            (), key: SAMLReplayKey.make(issuer: issuer, assertionID: assertionID), expiry: expiry, now: clock.now)
    }
}
