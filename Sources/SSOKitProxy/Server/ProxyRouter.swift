/// Which requests the interceptor gets, which the proxy forwards or tunnels, and which it refuses.
struct ProxyRouter: Sendable {
    let prefixes: [InterceptPrefix]
    let allowedPorts: Set<Int>
    private let prefixOrigins: Set<ProxyOrigin>

    init(prefixes: [InterceptPrefix], allowedPorts: Set<Int>) {
        // Longest first, so that the first match is the most specific prefix.
        self.prefixes = prefixes.sorted { $0.path.utf8.count > $1.path.utf8.count }
        self.allowedPorts = allowedPorts
        self.prefixOrigins = Set(prefixes.map(\.origin))
    }

    /// The most specific prefix that `origin` and the percent-encoded `path` fall under.
    func prefix(for origin: ProxyOrigin, path: Substring) -> InterceptPrefix? {
        prefixes.first { $0.matches(origin: origin, path: path) }
    }

    /// The prefix origin a CONNECT to `host:port` reaches, when the proxy terminates that tunnel itself to route
    /// the requests inside: an `https` prefix's (TLS with a leaf certificate), else an `http` prefix's (in clear,
    /// as clients that tunnel plain http send it).
    func terminatedOrigin(host: String, port: Int) -> ProxyOrigin? {
        ["https", "http"].lazy.compactMap { ProxyOrigin(scheme: $0, host: host, port: port) }
            .first(where: prefixOrigins.contains)
    }

    /// Whether the proxy may open a connection to `port` on `host` for a request with `scheme`: an allowed port,
    /// or the origin of a prefix.
    func mayConnect(scheme: String, host: String, port: Int) -> Bool {
        allowedPorts.contains(port)
            || (ProxyOrigin(scheme: scheme, host: host, port: port).map(prefixOrigins.contains) ?? false)
    }
}
