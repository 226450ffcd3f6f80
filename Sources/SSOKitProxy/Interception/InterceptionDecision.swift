import HTTPTypes

/// What the proxy does with an intercepted request: answer it with a compact response, or pass it on to the origin
/// as if it had not matched.
public struct InterceptionDecision: Sendable {
    enum Action: Sendable {
        case respond(HTTPResponse, body: [UInt8])
        case passThrough
    }

    let action: Action

    private init(_ action: Action) { self.action = action }

    /// Answer the browser with `response` and `body`. The proxy sets `Content-Length` and removes hop-by-hop
    /// fields from `response`; the body should be small (a 302 has none, an auto-post form a few KiB).
    public static func respond(_ response: HTTPResponse, body: [UInt8] = []) -> InterceptionDecision {
        InterceptionDecision(.respond(response, body: body))
    }

    /// Forward the request, with the body already read, to its origin and relay the origin's answer.
    public static let passThrough = InterceptionDecision(.passThrough)

    /// The response to send, or nil for ``passThrough``.
    public var response: (response: HTTPResponse, body: [UInt8])? {
        guard case .respond(let response, let body) = action else { return nil }
        return (response, body)
    }
}
