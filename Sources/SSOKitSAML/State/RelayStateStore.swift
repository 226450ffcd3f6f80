import Foundation
import SSOKitCore

/// Keeps the state of logins in flight on the server, under a short random RelayState key (well under the 80 bytes
/// of SAML Bindings §3.4.3), so that the IdP's auto-post back to the ACS needs no cookie (and no SameSite exception).
///
/// Each key is unguessable (128 random bits), expires after `lifetime`, and can be taken once. The store is bounded:
/// when full it refuses new entries instead of evicting live ones. SSOKitTokenCache offers a persistent equivalent.
public actor RelayStateStore<Value: Sendable> {
    private var entries: ExpiringEntries<Value>
    private let lifetime: TimeInterval
    private let clock: any SSOKitClock

    /// Creates a store whose entries live `lifetime` seconds (default 10 minutes).
    public init(lifetime: TimeInterval = 600, capacity: Int = 100_000, clock: any SSOKitClock = SystemClock()) {
        self.lifetime = lifetime
        self.entries = ExpiringEntries(capacity: capacity)
        self.clock = clock
    }

    /// Stores `value` and returns the RelayState that retrieves it: 22 base64url characters.
    public func put(_ value: Value) throws(SAMLError) -> String {
        let now = clock.now
        let key = Base64URL.encode(SecureRandom.bytes(16))
        guard entries.insertIfAbsent(value, key: key, expiry: now.addingTimeInterval(lifetime), now: now) else {
            throw SAMLError(.tooLarge, "too many logins are in flight")
        }
        return key
    }

    /// The value stored under `relayState`, removed so that it cannot be used again; nil when unknown or expired.
    public func take(_ relayState: String) -> Value? {
        entries.take(relayState, now: clock.now)
    }

    /// How many entries are stored (expired ones included until they are taken or swept).
    public var count: Int { entries.count }
}
