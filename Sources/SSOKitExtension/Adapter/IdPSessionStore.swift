import Foundation
import SSOKitCore
import SSOKitStore
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

    /// The live cookies of the IdP's session; an empty jar when there is none or it cannot be read. The jar
    /// remembers when it was read (``CookieJar/loadedAt``).
    func jar(for identity: String) async -> CookieJar {
        let now = clock.now
        guard let tokens = try? await cache.tokens(for: key(identity)), let session = tokens.idpSession,
            session.notOnOrAfter > now
        else { return CookieJar(loadedAt: now) }
        var jar = CookieJar(cookies: session.cookies, loadedAt: now)
        jar.removeExpired(now: now)
        return jar
    }

    /// Keeps `jar` as the IdP's session (removes the session when the jar is empty). The session is used until its
    /// latest persistent cookie expires, or ``lifetime`` from now when sooner or when it holds session cookies. A
    /// store that fails leaves the old session: the login itself has succeeded.
    ///
    /// A jar read before the session was ended (``end(_:)``) is not saved: a walk that was under way during a
    /// logout does not bring the session back. (The check reads the store just before writing; it narrows the race
    /// to that instant rather than the length of a walk.)
    func save(_ jar: CookieJar, for identity: String) async {
        let now = clock.now
        if let loadedAt = jar.loadedAt, let current = try? await cache.tokens(for: key(identity))?.idpSession,
            current.cookies.isEmpty, current.notOnOrAfter > loadedAt
        {
            return
        }
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

    /// Ends the IdP's session here; whether there was one. What stays is a marker without cookies whose
    /// `notOnOrAfter` is the end, so that a jar read before it is not saved afterwards.
    func end(_ identity: String) async throws(TokenCacheError) -> Bool {
        let now = clock.now
        let existed = try await cache.tokens(for: key(identity))?.idpSession.map {
            !$0.cookies.isEmpty && $0.notOnOrAfter > now
        }
        try await cache.store(
            CachedTokens(idpSession: IdPSessionRecord(cookies: [], notOnOrAfter: now)), for: key(identity))
        return existed ?? false
    }
}
