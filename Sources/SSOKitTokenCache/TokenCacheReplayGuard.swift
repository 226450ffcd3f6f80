import Foundation
import SSOKitSAML

/// SSOKitSAML's replay hook on the token cache's store: an assertion ID is recorded until its NotOnOrAfter, in
/// whatever backend the cache uses (so several processes sharing a store refuse each other's replays).
public struct TokenCacheReplayGuard: SAMLAssertionReplayGuard {
    let cache: TokenCache

    /// A guard recording into `cache`.
    public init(cache: TokenCache) { self.cache = cache }

    /// Records the ID; false when it was seen before.
    public func recordFirstUse(assertionID: String, issuer: String, expiry: Date) async throws -> Bool {
        try await cache.recordOnce(namespace: "saml-assertion", id: "\(issuer)\u{0}\(assertionID)", until: expiry)
    }
}
