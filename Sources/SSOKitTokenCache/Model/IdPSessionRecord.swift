import Foundation

/// An identity provider's browser session: the cookies its login set, as a cookie jar keeps them (RFC 6265 §5.3),
/// and the instant after which the session is no longer used, whatever the cookies say.
///
/// Cookie values are session credentials: the record lives only sealed in the cache, and its description shows no
/// value.
public struct IdPSessionRecord: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The cookies, in the order they were set.
    public var cookies: [IdPSessionCookie]
    /// The session is not used at or after this instant (the latest cookie expiry, or the keeper's own cap).
    public var notOnOrAfter: Date

    /// Creates a record.
    public init(cookies: [IdPSessionCookie], notOnOrAfter: Date) {
        self.cookies = cookies
        self.notOnOrAfter = notOnOrAfter
    }

    /// The cookie names and the expiry, without values.
    public var description: String {
        "IdPSessionRecord(cookies: \(cookies.map(\.name)), notOnOrAfter: \(notOnOrAfter))"
    }
}

/// One stored cookie (RFC 6265 §5.3 storage model, without the last-access and creation times).
public struct IdPSessionCookie: Sendable, Hashable, Codable {
    /// The cookie name.
    public var name: String
    /// The cookie value: a credential.
    public var value: String
    /// The domain, lower case, without a leading dot.
    public var domain: String
    /// Whether the cookie goes only to `domain` itself (no Domain attribute), not to its subdomains.
    public var hostOnly: Bool
    /// The path.
    public var path: String
    /// When it expires; nil for a session cookie.
    public var expiresAt: Date?
    /// Sent only over https (or to a loopback host).
    public var secure: Bool
    /// Not readable by scripts (kept for completeness; the adapter runs no script).
    public var httpOnly: Bool

    /// Creates a cookie.
    public init(
        name: String, value: String, domain: String, hostOnly: Bool, path: String, expiresAt: Date?, secure: Bool,
        httpOnly: Bool
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.expiresAt = expiresAt
        self.secure = secure
        self.httpOnly = httpOnly
    }
}
