import NIOHTTP1

/// The fields that describe one connection rather than the message (RFC 9110 §7.6.1), which a proxy removes
/// before it forwards a message, and the `Via` it adds (RFC 9110 §7.6.3).
enum HopByHopFields {
    /// Always connection-specific, whether or not `Connection` names them; `Proxy-Authorization` and
    /// `Proxy-Authenticate` are meant for this proxy and never travel on.
    static let fixed: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade",
        "proxy-authorization", "proxy-authenticate", "http2-settings",
    ]

    /// The pseudonym this proxy adds to `Via`.
    static let pseudonym = "ssokit"

    /// `headers` without the fixed hop-by-hop fields and without every field that `Connection` names.
    static func endToEnd(_ headers: HTTPHeaders) -> HTTPHeaders {
        var named = fixed
        for value in headers[canonicalForm: "connection"] { named.insert(value.lowercased()) }
        var result = HTTPHeaders()
        result.reserveCapacity(headers.count)
        for (name, value) in headers where !named.contains(name.lowercased()) {
            result.add(name: name, value: value)
        }
        return result
    }

    /// Appends this proxy to `Via`, naming the protocol version the message arrived with.
    static func addVia(to headers: inout HTTPHeaders, receivedWith version: HTTPVersion) {
        headers.add(name: "Via", value: "\(version.major).\(version.minor) \(pseudonym)")
    }
}
