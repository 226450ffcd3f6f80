import Foundation

/// What an authorization code stands for until the client redeems it.
struct CodeGrant: Sendable {
    let authorization: OIDCAuthorization
    let session: UserSession
}

/// Authorization codes (RFC 6749 §4.1.2): single use and short-lived. A redeemed code leaves a tombstone naming the
/// token family it started, so that a second use revokes that family (RFC 6749 §4.1.2, §10.5).
actor AuthorizationCodeStore {
    enum Redemption: Sendable {
        /// First use: the grant, and the ID of the token family to start with it.
        case granted(CodeGrant, familyID: String)
        /// The code was used before; revoke this family.
        case spent(familyID: String)
        /// Unknown or expired.
        case unknown
    }

    private var live = ExpiringMap<CodeGrant>(capacity: 10_000)
    private var spent = ExpiringMap<String>(capacity: 10_000)

    /// Issues a code for `grant`; nil when the store is full.
    func issue(_ grant: CodeGrant, now: Date, lifetime: TimeInterval) -> String? {
        let code = SecretKey.make()
        guard live.set(grant, key: SecretKey.of(code), expiry: now.addingTimeInterval(lifetime), now: now) else {
            return nil
        }
        return code
    }

    /// Redeems `code` once; remembers it as spent for `tombstoneLifetime`.
    func redeem(_ code: String, now: Date, tombstoneLifetime: TimeInterval) -> Redemption {
        guard code.utf8.count <= 128 else { return .unknown }
        let key = SecretKey.of(code)
        if let familyID = spent.value(key, now: now) { return .spent(familyID: familyID) }
        guard let grant = live.remove(key, now: now) else { return .unknown }
        let familyID = SecretKey.make()
        _ = spent.set(familyID, key: key, expiry: now.addingTimeInterval(tombstoneLifetime), now: now)
        return .granted(grant, familyID: familyID)
    }
}
