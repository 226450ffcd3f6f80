import Foundation

/// Values that may be used once until they expire: `private_key_jwt` assertion IDs (RFC 7523 §3, `jti`) and SAML
/// request IDs.
actor OneTimeValues {
    private var seen = ExpiringMap<Bool>(capacity: 50_000)

    /// Records `key` until `expiry`; false when it was seen before (or, full of live values, cannot be recorded).
    func firstUse(_ key: String, until expiry: Date, now: Date) -> Bool {
        guard seen.value(key, now: now) == nil else { return false }
        return seen.set(true, key: key, expiry: expiry, now: now)
    }
}
