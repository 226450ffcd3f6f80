import NIOHTTP1

/// A browser request once its target is known: the head as received, the origin it is for and the target in
/// origin form.
struct ProxiedRequest {
    let head: HTTPRequestHead
    let origin: ProxyOrigin
    let pathAndQuery: String

    /// The path without the query, as prefixes compare it.
    var path: Substring { RequestTarget.path(of: pathAndQuery) }

    /// Whether the answer to this request carries no body whatever its headers say.
    var expectsNoResponseBody: Bool { head.method == .HEAD }

    /// Whether the browser wants the connection kept after this exchange. A request that asks to switch
    /// protocols stops the request decoder, so its connection closes after the answer.
    var keepsConnection: Bool {
        head.isKeepAlive && !(head.headers.contains(name: "upgrade") && connectionTokens.contains("upgrade"))
    }

    /// The body framing the browser used: chunked, a length, or none (RFC 9112 §6.3).
    var bodyFraming: BodyFraming {
        if head.headers.contains(name: "transfer-encoding") { return .chunked }
        if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }) { return .length(length) }
        return .none
    }

    /// The target's authority as HTTP writes it: the port only when it is not the scheme's default.
    var hostField: String {
        let defaultPort = origin.scheme == "https" ? 443 : 80
        let host = ProxyHostName.authorityForm(origin.host)
        return origin.port == defaultPort ? host : "\(host):\(origin.port)"
    }

    private var connectionTokens: [String] {
        head.headers[canonicalForm: "connection"].map { $0.lowercased() }
    }

    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
    }
}
