import NIOHTTP1

/// A request's target as a forward proxy reads it (RFC 9112 §3.2): `host:port` for CONNECT, an absolute URL for
/// plain proxying, or a path inside a terminated TLS tunnel.
enum RequestTarget: Equatable {
    /// CONNECT's authority form.
    case authority(host: String, port: Int)
    /// `http(s)://authority/path?query`.
    case absolute(origin: ProxyOrigin, pathAndQuery: String)
    /// `/path?query`.
    case originForm(pathAndQuery: String)

    /// Parses the target of a request line; nil when it is none of the forms, names user info, or has a host that
    /// is neither DNS labels nor an IP literal.
    init?(uri: String, method: HTTPMethod) {
        if method == .CONNECT {
            guard let (host, port) = Self.hostAndPort(Substring(uri)), let port,
                let normalized = ProxyHostName.normalized(host), (1...65535).contains(port)
            else { return nil }
            self = .authority(host: normalized, port: port)
            return
        }
        if uri.hasPrefix("/") {
            self = .originForm(pathAndQuery: uri)
            return
        }
        guard let colon = uri.firstIndex(of: ":"), uri[colon...].hasPrefix("://") else { return nil }
        let scheme = uri[..<colon]
        let rest = uri[uri.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@"), let (host, port) = Self.hostAndPort(authority),
            let origin = ProxyOrigin(scheme: String(scheme), host: host, port: port)
        else { return nil }
        var pathAndQuery = rest[authorityEnd...]
        if let fragment = pathAndQuery.firstIndex(of: "#") { pathAndQuery = pathAndQuery[..<fragment] }
        let path = pathAndQuery.hasPrefix("?") ? "/" + pathAndQuery : String(pathAndQuery)
        self = .absolute(origin: origin, pathAndQuery: path.isEmpty ? "/" : path)
    }

    /// The path of `pathAndQuery`, without the query.
    static func path(of pathAndQuery: String) -> Substring {
        pathAndQuery[..<(pathAndQuery.firstIndex(of: "?") ?? pathAndQuery.endIndex)]
    }

    /// Splits `host[:port]` or `[v6][:port]`; the port is nil when absent, and the whole is nil when malformed.
    static func hostAndPort(_ authority: Substring) -> (host: Substring, port: Int?)? {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")) {
            // Bytes, not Characters: walking back over a run of regional indicators is quadratic.
            host = authority[..<colon]
            portText = authority[authority.utf8.index(after: colon)...]
        }
        guard !host.isEmpty else { return nil }
        guard let portText else { return (host, nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
            let port = Int(portText)
        else { return nil }
        return (host, port)
    }
}
