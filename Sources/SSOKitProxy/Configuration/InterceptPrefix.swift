import Foundation

/// A URL prefix whose requests the proxy hands to its ``ProxyInterceptor``: a request matches when its scheme,
/// host (ignoring case) and port equal the prefix's and its percent-encoded path starts with the prefix's path,
/// byte for byte (the rule of a Redirect payload's `URLs`).
public struct InterceptPrefix: Sendable, Hashable, CustomStringConvertible {
    /// The URL as given.
    public let url: String
    /// Scheme, normalized host and port.
    public let origin: ProxyOrigin
    /// The percent-encoded path prefix, at least `/`.
    public let path: String

    /// Parses an absolute http(s) URL with a host and no user info, query or fragment.
    public init(_ url: String) throws(ProxyError) {
        guard url.utf8.count <= 2048, let components = URLComponents(string: url),
            let scheme = components.scheme, let host = components.percentEncodedHost, !host.isEmpty
        else { throw ProxyError(.invalidPrefix, "an intercept prefix must be an absolute http(s) URL with a host") }
        guard components.user == nil, components.password == nil, components.query == nil,
            components.fragment == nil
        else { throw ProxyError(.invalidPrefix, "an intercept prefix has no user info, query or fragment") }
        guard let origin = ProxyOrigin(scheme: scheme, host: host, port: components.port) else {
            throw ProxyError(.invalidPrefix, "an intercept prefix needs http(s), a DNS or IP host and a valid port")
        }
        self.url = url
        self.origin = origin
        let path = components.percentEncodedPath
        self.path = path.isEmpty ? "/" : path
    }

    /// Whether a request to `origin` with the percent-encoded `path` (without its query) falls under this prefix.
    public func matches(origin: ProxyOrigin, path requestPath: some StringProtocol) -> Bool {
        origin == self.origin && requestPath.utf8.starts(with: path.utf8)
    }

    /// The URL as given.
    public var description: String { url }
}
