import Foundation

/// The tokens one code exchange started: its access tokens and its chain of refresh tokens, of which only the newest
/// works (refresh-token rotation, OAuth 2.0 Security BCP §4.14.2).
struct TokenFamily: Sendable {
    let id: String
    let clientID: String
    let username: String
    let scopes: [String]
    let session: UserSession
    /// The refresh tokens' absolute end: rotation does not extend it.
    let expiresAt: Date
    var currentRefreshKey: String
    var accessKeys: [String]
}

/// What a valid access token grants (UserInfo, revocation).
struct AccessGrant: Sendable {
    let familyID: String
    let clientID: String
    let username: String
    let scopes: [String]
    let expiresAt: Date
}

/// A fresh access and refresh token.
struct IssuedTokens: Sendable {
    let accessToken: String
    let accessTokenExpiresAt: Date
    let refreshToken: String
    let scopes: [String]
}

/// Token families with rotation and reuse detection: presenting a refresh token that was already rotated away
/// revokes the whole family, since either the client or an attacker holds a stolen copy.
actor GrantStore {
    enum RefreshOutcome: Sendable {
        case rotated(TokenFamily, IssuedTokens)
        /// A spent (rotated) refresh token: the family is now revoked.
        case reused
        /// Issued to another client; nothing changes (RFC 6749 §6).
        case otherClient
        /// The requested scopes exceed the family's (RFC 6749 §6); nothing changes.
        case scopeNotGranted
        /// Unknown, expired or revoked.
        case invalid
    }

    private struct RefreshEntry: Sendable {
        let familyID: String
        let current: Bool
    }

    private var families = ExpiringMap<TokenFamily>(capacity: 10_000)
    private var refreshIndex = ExpiringMap<RefreshEntry>(capacity: 100_000)
    private var accessIndex = ExpiringMap<AccessGrant>(capacity: 100_000)
    private var revokedFamilies = ExpiringMap<Bool>(capacity: 10_000)

    /// Starts the family `familyID` (named by the code's redemption); nil if it was revoked meanwhile (the code was
    /// replayed) or the store is full.
    func start(
        familyID: String, clientID: String, username: String, scopes: [String], session: UserSession, now: Date,
        lifetimes: DevIdPLifetimes
    ) -> IssuedTokens? {
        guard revokedFamilies.value(familyID, now: now) == nil else { return nil }
        let refresh = SecretKey.make()
        let family = TokenFamily(
            id: familyID, clientID: clientID, username: username, scopes: scopes, session: session,
            expiresAt: now.addingTimeInterval(lifetimes.refreshToken), currentRefreshKey: SecretKey.of(refresh),
            accessKeys: [])
        guard families.set(family, key: familyID, expiry: family.expiresAt, now: now),
            refreshIndex.set(
                RefreshEntry(familyID: familyID, current: true), key: family.currentRefreshKey,
                expiry: family.expiresAt, now: now),
            let access = issueAccess(in: familyID, scopes: scopes, now: now, lifetime: lifetimes.accessToken)
        else { return nil }
        return IssuedTokens(
            accessToken: access.token, accessTokenExpiresAt: access.expiresAt, refreshToken: refresh, scopes: scopes)
    }

    /// Rotates `refreshToken` for `clientID`: a new access token (with `scopes`, a subset of the family's, or all of
    /// them) and a new refresh token; the presented one is spent.
    func refresh(
        _ refreshToken: String, clientID: String, scopes requested: [String]?, now: Date, lifetimes: DevIdPLifetimes
    ) -> RefreshOutcome {
        guard refreshToken.utf8.count <= 128 else { return .invalid }
        let key = SecretKey.of(refreshToken)
        guard let entry = refreshIndex.value(key, now: now), var family = families.value(entry.familyID, now: now)
        else { return .invalid }
        guard family.clientID == clientID else { return .otherClient }
        guard entry.current, family.currentRefreshKey == key else {
            revokeFamily(entry.familyID, now: now)
            return .reused
        }
        let scopes = requested ?? family.scopes
        guard Set(scopes).isSubset(of: family.scopes) else { return .scopeNotGranted }
        let next = SecretKey.make()
        _ = refreshIndex.set(
            RefreshEntry(familyID: family.id, current: false), key: key, expiry: family.expiresAt, now: now)
        family.currentRefreshKey = SecretKey.of(next)
        guard
            refreshIndex.set(
                RefreshEntry(familyID: family.id, current: true), key: family.currentRefreshKey,
                expiry: family.expiresAt, now: now),
            families.set(family, key: family.id, expiry: family.expiresAt, now: now),
            let access = issueAccess(in: family.id, scopes: scopes, now: now, lifetime: lifetimes.accessToken),
            let updated = families.value(family.id, now: now)
        else { return .invalid }
        return .rotated(
            updated,
            IssuedTokens(
                accessToken: access.token, accessTokenExpiresAt: access.expiresAt, refreshToken: next, scopes: scopes))
    }

    /// The live grant of an access token.
    func access(_ token: String, now: Date) -> AccessGrant? {
        guard token.utf8.count <= 128 else { return nil }
        return accessIndex.value(SecretKey.of(token), now: now)
    }

    /// Revokes `token` if `clientID` holds it (RFC 7009 §2.1): a refresh token takes its whole family with it, an
    /// access token only itself. Unknown tokens and other clients' tokens change nothing.
    func revoke(_ token: String, clientID: String, now: Date) {
        guard token.utf8.count <= 128 else { return }
        let key = SecretKey.of(token)
        if let entry = refreshIndex.value(key, now: now), let family = families.value(entry.familyID, now: now),
            family.clientID == clientID
        {
            revokeFamily(family.id, now: now)
        } else if let grant = accessIndex.value(key, now: now), grant.clientID == clientID {
            accessIndex.remove(key, now: now)
        }
    }

    /// Revokes every token of a family, and refuses to start it later (a replayed code may race its first use).
    func revokeFamily(_ familyID: String, now: Date) {
        _ = revokedFamilies.set(true, key: familyID, expiry: now.addingTimeInterval(86_400), now: now)
        guard let family = families.remove(familyID, now: now) else { return }
        for key in family.accessKeys { accessIndex.remove(key, now: now) }
        _ = refreshIndex.removeAll { $0.familyID == familyID }
    }

    private func issueAccess(in familyID: String, scopes: [String], now: Date, lifetime: TimeInterval) -> (
        token: String, expiresAt: Date
    )? {
        guard let family = families.value(familyID, now: now) else { return nil }
        let token = SecretKey.make()
        let key = SecretKey.of(token)
        let expiresAt = now.addingTimeInterval(lifetime)
        let grant = AccessGrant(
            familyID: familyID, clientID: family.clientID, username: family.username, scopes: scopes,
            expiresAt: expiresAt)
        guard accessIndex.set(grant, key: key, expiry: expiresAt, now: now) else { return nil }
        families.update(familyID, now: now) { family in
            family.accessKeys.removeAll { accessIndex.value($0, now: now) == nil }
            family.accessKeys.append(key)
        }
        return (token, expiresAt)
    }
}
