import Foundation
import SSOKitCore
import SSOKitTokenCache

/// The adapter's cookie jar for IdP sessions: the subset of RFC 6265 §5.2-5.4 that logins need (Domain, Path,
/// Expires, Max-Age, Secure, HttpOnly), with caps on the number and size of cookies.
///
/// - A Domain attribute must cover the setting host and hold a dot (no public-suffix list: `Domain=com` is
///   ignored, as is any domain on an IP address other than the address itself).
/// - A Secure cookie is neither set from nor sent to plain http, except on a loopback host.
/// - Expired cookies are dropped on every read; a cookie of the same name, domain and path replaces the old one.
struct CookieJar: Sendable, Equatable {
    /// Most cookies kept for one domain (RFC 6265 §6.1's minimum); when a domain is full its own oldest goes, so
    /// another site in a login's redirect chain cannot push the IdP's session cookies out.
    static let maximumCookiesPerDomain = 50
    /// Most cookies kept in all; when full the oldest cookie of the domain holding the most goes.
    static let maximumCookies = 150
    /// Largest name plus value of one cookie, in bytes (RFC 6265 §6.1's minimum a jar must hold).
    static let maximumCookieBytes = 4096

    private(set) var cookies: [IdPSessionCookie]
    /// When the jar was read from the IdP session store: a logout after that instant wins over saving this jar.
    var loadedAt: Date?

    init(cookies: [IdPSessionCookie] = [], loadedAt: Date? = nil) {
        self.cookies = cookies
        self.loadedAt = loadedAt
    }

    /// Whether the jar holds no cookie.
    var isEmpty: Bool { cookies.isEmpty }

    /// Drops the cookies that have expired at `now`.
    mutating func removeExpired(now: Date) {
        cookies.removeAll { cookie in cookie.expiresAt.map { $0 <= now } ?? false }
    }

    /// Stores what the `Set-Cookie` header `header` of a response from `url` sets (or deletes).
    mutating func store(setCookie header: String, from url: URL, now: Date) {
        guard header.utf8.count <= Self.maximumCookieBytes + 1024, let host = url.host?.lowercased(),
            let parsed = SetCookie(header)
        else { return }
        let secureOrigin = Self.isSecure(url)
        if parsed.secure && !secureOrigin { return }
        var domain = host
        var hostOnly = true
        if let attribute = parsed.domain, !attribute.isEmpty {
            guard Self.domainMatches(host: host, domain: attribute), attribute.contains(".") || attribute == host else {
                return
            }
            if Self.isIPAddress(host) && attribute != host { return }
            domain = attribute
            hostOnly = attribute == host && Self.isIPAddress(host)
        }
        let path = parsed.path.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? Self.defaultPath(url)
        var expiry: Date?
        if let maxAge = parsed.maxAge {
            expiry = maxAge <= 0 ? Date.distantPast : now.addingTimeInterval(TimeInterval(min(maxAge, 400 * 86_400)))
        } else if let expires = parsed.expires {
            expiry = expires
        }
        cookies.removeAll { $0.name == parsed.name && $0.domain == domain && $0.path == path }
        if let expiry, expiry <= now { return }
        guard parsed.name.utf8.count + parsed.value.utf8.count <= Self.maximumCookieBytes else { return }
        cookies.append(
            IdPSessionCookie(
                name: parsed.name, value: parsed.value, domain: domain, hostOnly: hostOnly, path: path,
                expiresAt: expiry, secure: parsed.secure, httpOnly: parsed.httpOnly))
        if cookies.count > Self.maximumCookies || count(in: domain) > Self.maximumCookiesPerDomain {
            removeExpired(now: now)
            enforceCaps(newest: domain)
        }
    }

    private func count(in domain: String) -> Int {
        cookies.reduce(0) { $0 + ($1.domain == domain ? 1 : 0) }
    }

    /// Drops the oldest cookies of `newest` while it holds more than its share, then, while the jar is over its
    /// total, the oldest cookie of whichever domain holds the most (both loops end: each pass removes one cookie).
    private mutating func enforceCaps(newest domain: String) {
        while count(in: domain) > Self.maximumCookiesPerDomain,
            let oldest = cookies.firstIndex(where: { $0.domain == domain })
        {
            cookies.remove(at: oldest)
        }
        while cookies.count > Self.maximumCookies {
            var counts: [String: Int] = [:]
            for cookie in cookies { counts[cookie.domain, default: 0] += 1 }
            guard let largest = counts.max(by: { $0.value < $1.value })?.key,
                let oldest = cookies.firstIndex(where: { $0.domain == largest })
            else { return }
            cookies.remove(at: oldest)
        }
    }

    /// The `Cookie` header value for a request to `url`: the live cookies that match it, longer paths first
    /// (RFC 6265 §5.4); nil when none does.
    func header(for url: URL, now: Date) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = Self.isSecure(url)
        let matching = cookies.filter { cookie in
            if let expiry = cookie.expiresAt, expiry <= now { return false }
            if cookie.secure && !secure { return false }
            let hostMatches =
                cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host: host, domain: cookie.domain)
            return hostMatches && Self.pathMatches(path, cookie.path)
        }
        guard !matching.isEmpty else { return nil }
        return matching.sorted { $0.path.utf8.count > $1.path.utf8.count }.map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
    }

    /// https, or http on a loopback host.
    private static func isSecure(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "https" || (scheme == "http" && EndpointSecurity.isLoopback(host: url.host ?? ""))
    }

    /// RFC 6265 §5.1.3.
    static func domainMatches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        return !isIPAddress(host) && host.hasSuffix("." + domain)
    }

    /// RFC 6265 §5.1.4.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// RFC 6265 §5.1.4's default-path: the request path up to, not including, its last `/`. Searched in the UTF-8
    /// bytes: walking back by Characters over a run of regional indicators takes time quadratic in its length.
    private static func defaultPath(_ url: URL) -> String {
        let path = url.path
        guard path.hasPrefix("/"), let last = path.utf8.lastIndex(of: UInt8(ascii: "/")), last != path.startIndex
        else { return "/" }
        return String(path[..<last])
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (host.split(separator: ".").count == 4 && host.allSatisfy { $0 == "." || $0.isNumber })
    }
}

/// One `Set-Cookie` header, parsed as RFC 6265 §5.2 does (unknown attributes ignored).
private struct SetCookie {
    var name: String
    var value: String
    var domain: String?
    var path: String?
    var expires: Date?
    var maxAge: Int?
    var secure = false
    var httpOnly = false

    init?(_ header: String) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let pair = parts.next(), let equals = pair.firstIndex(of: "=") else { return nil }
        name = String(pair[..<equals]).trimmingASCIISpaces
        value = String(pair[pair.index(after: equals)...]).trimmingASCIISpaces
        guard !name.isEmpty, HTTPHeaderValue.isVisibleASCII(name), value.isEmpty || HTTPHeaderValue.isValid(value),
            !value.contains(";")
        else { return nil }
        for part in IteratorSequence(parts) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let attribute = String(pieces[0]).trimmingASCIISpaces.lowercased()
            let argument = pieces.count > 1 ? String(pieces[1]).trimmingASCIISpaces : ""
            switch attribute {
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                self.domain = domain
            case "path": path = argument
            case "expires": expires = CookieDate.parse(argument)
            case "max-age":
                let digits = argument.hasPrefix("-") ? argument.dropFirst() : Substring(argument)
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
                let magnitude = Int(digits.prefix(10)) ?? Int.max
                maxAge = argument.hasPrefix("-") ? -magnitude : magnitude
            case "secure": secure = true
            case "httponly": httpOnly = true
            default: continue
            }
        }
    }
}
