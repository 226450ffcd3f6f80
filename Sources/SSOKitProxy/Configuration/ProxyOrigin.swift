/// Where a request goes: scheme (`http` or `https`), normalized host and port.
public struct ProxyOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host, ASCII lower case, without IPv6 brackets or a trailing dot.
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int

    /// Creates an origin; nil when the scheme is not http(s), the host is neither DNS labels nor an IP literal, or
    /// the port is outside 1...65535.
    public init?(scheme: String, host: some StringProtocol, port: Int?) {
        let scheme = scheme.lowercased()
        guard scheme == "http" || scheme == "https", let host = ProxyHostName.normalized(host) else { return nil }
        let port = port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `host:port`, with IPv6 literals in brackets.
    public var authority: String { "\(ProxyHostName.authorityForm(host)):\(port)" }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(authority)" }
}
