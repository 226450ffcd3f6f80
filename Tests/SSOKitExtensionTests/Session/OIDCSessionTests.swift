import Crypto
import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache
import Testing

/// The session work that moved from the CLI into the library: the cache entry of a session, the refresh policy and
/// the right-protected cache key.
@Suite struct OIDCSessionTests {
    let idp = InMemoryIdentityProvider(clock: AdjustableClock())

    @Test func aSessionRoundTripsThroughItsCacheEntry() throws {
        let idToken = try idp.idToken(nonce: "n")
        let claims = try IDTokenClaims(previouslyVerified: idToken)
        let session = OIDCSession(
            tokens: TokenSet(accessToken: "at", refreshToken: "rt", idToken: idToken, scope: "openid email"),
            claims: claims)
        let entry = session.cachedTokens(scopes: ["ignored"])
        #expect(entry.scopes == ["openid", "email"])
        #expect(entry.idTokenExpiresAt == claims.expiresAt.date)
        let back = try OIDCSession(cached: entry)
        #expect(
            back.claims.subject == "alice" && back.tokens.refreshToken == "rt" && back.tokens.scope == "openid email")
        #expect(
            OIDCSession(tokens: TokenSet(accessToken: "b"), claims: claims).cachedTokens(
                scopes: ["s"], previousIDToken: idToken
            ).idToken == idToken)
    }

    @Test func anEntryWithoutAReadableIDTokenIsUnreadable() {
        #expect(throws: TokenCacheError(.entryUnreadable, "")) {
            try OIDCSession(cached: CachedTokens(accessToken: "a"))
        }
        #expect(throws: TokenCacheError(.entryUnreadable, "")) {
            try OIDCSession(cached: CachedTokens(accessToken: "a", idToken: "not.a.jws"))
        }
        #expect(throws: OIDCError(.malformedToken, "")) { try IDTokenClaims(previouslyVerified: "a.b") }
    }

    @Test func theRefreshPolicyKeepsWhatTheProviderDoesNotReplace() async throws {
        let party = OpenIDRelyingParty(
            issuer: idp.issuer, clientID: idp.clientID, authentication: .clientSecretBasic(idp.clientSecret),
            transport: idp.transport)
        let harness = try AdapterHarness(payloads: [AdapterHarness.oidcPayload()], idp: idp)
        let login = await harness.login("a.b")
        let entry = try #require(
            try await harness.cache.tokens(
                for: TokenCacheKey(
                    application: "a.b", issuer: idp.issuer, clientID: idp.clientID, scopes: ["openid", "profile"])))
        let refreshed = try await party.refreshedEntry(entry)
        #expect(refreshed.accessToken != entry.accessToken && refreshed.accessToken?.hasPrefix("at-") == true)
        #expect(refreshed.refreshToken == entry.refreshToken)
        #expect(refreshed.idToken == entry.idToken)
        #expect(refreshed.scopes == entry.scopes)
        #expect(login.accessToken == entry.accessToken)
        idp.revokeRefreshTokens()
        await #expect(throws: OIDCError(.invalidGrant, "")) { try await party.refreshedEntry(entry) }
    }

    @Test func theProtectedCacheKeyOpensOnlyWithItsPassphrase() async throws {
        let records = InMemoryTokenCacheStore()
        let deviceKey = SymmetricKey(size: .bits256)
        let rights = try RightStore(records: records, deviceKey: deviceKey)
        let authenticator = FixedPassphrase(answer: "correct horse")
        let key = try await ProtectedCacheKey.unlock(
            rights: rights, authenticator: authenticator, newPassphrase: { "correct horse" })
        let again = try await ProtectedCacheKey.unlock(
            rights: try RightStore(records: records, deviceKey: deviceKey), authenticator: authenticator,
            newPassphrase: {
                Issue.record("asked for a new passphrase")
                return ""
            })
        #expect(key.base64 == again.base64)
        await #expect(throws: RightError.self) {
            _ = try await ProtectedCacheKey.unlock(
                rights: rights, authenticator: FixedPassphrase(answer: "wrong"), newPassphrase: { "" })
        }
    }
}

struct FixedPassphrase: RightAuthenticator {
    let answer: String
    func passphrase(for request: PassphraseRequest) async -> String? { answer }
}
