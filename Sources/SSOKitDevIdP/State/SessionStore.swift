import Foundation

/// The IdP's browser sessions, filed under the hash of their cookie.
actor SessionStore {
    private var sessions = ExpiringMap<UserSession>(capacity: 10_000)

    /// Starts a session for `username`; returns the cookie value, or nil when the store is full.
    func start(username: String, now: Date, lifetime: TimeInterval) -> (cookie: String, session: UserSession)? {
        let cookie = SecretKey.make()
        let session = UserSession(
            sid: SecretKey.make(), username: username, authTime: now, expiresAt: now.addingTimeInterval(lifetime))
        guard sessions.set(session, key: SecretKey.of(cookie), expiry: session.expiresAt, now: now) else { return nil }
        return (cookie, session)
    }

    /// The live session of a cookie.
    func session(cookie: String?, now: Date) -> UserSession? {
        guard let cookie, !cookie.isEmpty, cookie.utf8.count <= 128 else { return nil }
        return sessions.value(SecretKey.of(cookie), now: now)
    }

    /// Ends the session of a cookie and returns it.
    func end(cookie: String?, now: Date) -> UserSession? {
        guard let cookie, !cookie.isEmpty, cookie.utf8.count <= 128 else { return nil }
        return sessions.remove(SecretKey.of(cookie), now: now)
    }

    /// Ends every session whose `sid` is in `sids` (a SAML LogoutRequest's SessionIndex values).
    func end(sids: Set<String>) -> Int {
        sessions.removeAll { sids.contains($0.sid) }.count
    }
}
