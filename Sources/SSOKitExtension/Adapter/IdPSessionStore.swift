import Foundation
import SSOKitCore
import SSOKitTokenCache

/// The IdP sessions: each IdP's cookie jar, sealed in the token cache under the reserved application `#idp-session`
/// (no bundle identifier can be that: every app shares the session, and no app can read it as its own).
struct IdPSessionStore: Sendable {
    /// The reserved application name.
    static let application = "#idp-session"

    let cache: TokenCache
    let clock: any SSOKitClock
    let lifetime: TimeInterval

    func key(_ identity: String) -> TokenCacheKey {
        TokenCacheKey(application: Self.application, issuer: identity, clientID: "")
    }

    /// The live cookies of the IdP's session; an empty jar when there is none or it cannot be read.
    func jar(for identity: String) async -> CookieJar {
        let now = clock.now
        guard let tokens = try? await cache.tokens(for: key(identity)), let session = tokens.idpSession,
            session.notOnOrAfter > now
        else { return CookieJar() }
        var jar = CookieJar(cookies: session.cookies)
        jar.removeExpired(now: now)
        return jar
    }

    /// Keeps `jar` as the IdP's session (removes the session when the jar is empty). The session is used until its
    /// latest persistent cookie expires, or ``lifetime`` from now when sooner or when it holds session cookies. A
    /// store that fails leaves the old session: the login itself has succeeded.
    func save(_ jar: CookieJar, for identity: String) async {
        let now = clock.now
        var jar = jar
        jar.removeExpired(now: now)
        guard !jar.isEmpty else {
            try? await cache.remove(key(identity))
            return
        }
        let cap = now.addingTimeInterval(lifetime)
        let expiries = jar.cookies.map(\.expiresAt)
        let latest = expiries.contains(where: { $0 == nil }) ? cap : expiries.compactMap { $0 }.max() ?? cap
        let record = IdPSessionRecord(cookies: jar.cookies, notOnOrAfter: min(latest, cap))
        try? await cache.store(CachedTokens(idpSession: record), for: key(identity))
    }

    /// Ends the IdP's session here; whether there was one.
    func end(_ identity: String) async throws(TokenCacheError) -> Bool {
        try await cache.endSession(for: key(identity)).existed
    }
}
