import Foundation
import SSOKitCore
import SSOKitSAML
import SSOKitStore
import SSOKitTokenCache

/// SSOKitSAML's replay hook on the token cache's store: an assertion ID is recorded until its NotOnOrAfter, in
/// whatever backend the cache uses (so several processes sharing a store refuse each other's replays). It lives in
/// the adapter, where SAML and the cache meet, so that neither of them needs the other.
///
/// Each record is keyed by `SAMLReplayKey`, so assertion IDs of different issuers never collide and no key holds
/// a character that a database refuses or cuts at.
public struct TokenCacheReplayGuard: SAMLAssertionReplayGuard {
    private static let namespace = "saml-assertion"
    private let record: @Sendable (_ key: String, _ expiry: Date) async throws(TokenCacheError) -> Bool

    /// A guard recording into `cache`'s store.
    public init(cache: TokenCache) {
        record = { key, expiry throws(TokenCacheError) in
            try await cache.recordOnce(namespace: Self.namespace, id: key, until: expiry)
        }
    }

    /// A guard recording straight into `store`, with no cache key: an assertion ID is no secret, nothing is sealed.
    /// `clock` decides which records have expired.
    public init(store: any TokenCacheStore, clock: any SSOKitClock = SystemClock()) {
        record = { key, expiry throws(TokenCacheError) in
            try await store.insertOnce(namespace: Self.namespace, id: key, value: [], expiresAt: expiry, now: clock.now)
        }
    }

    /// Records the ID; false when it was seen before.
    public func recordFirstUse(assertionID: String, issuer: String, expiry: Date) async throws -> Bool {
        try await record(SAMLReplayKey.make(issuer: issuer, assertionID: assertionID), expiry)
    }
}
