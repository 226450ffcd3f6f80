/// Scheme, host and port as matching compares them: lower-case scheme and host, the default port filled in.
public struct RequestOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host, lower case, without IPv6 brackets or a trailing dot.
    public let host: String
    /// The port, 80 or 443 when the URL names none.
    public let port: Int

    init(scheme: String, normalizedHost: String, port: Int?) {
        self.scheme = scheme
        self.host = normalizedHost
        self.port = port ?? (scheme == "https" ? 443 : 80)
    }

    /// `scheme://host[:port]`, the port shown when it is not the scheme's default.
    public var description: String { "\(scheme)://\(authority)" }
}

extension RequestOrigin {
    /// `host` or `host:port` when the port is not the scheme's default, brackets around IPv6.
    var authority: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        let standard = scheme == "https" ? 443 : 80
        return port == standard ? shown : "\(shown):\(port)"
    }
}
