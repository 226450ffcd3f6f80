import NIOHTTP1

/// An answer the proxy gives itself: a status, a stable snake_case code and a short message, sent as
/// `text/plain` with `Connection: close`. Neither carries anything from the request.
struct ProxyRejection: Error, Sendable {
    let status: HTTPResponseStatus
    let code: String
    let message: String

    static let malformedRequest = ProxyRejection(.badRequest, "malformed_request", "the request is not valid HTTP/1.1")
    static let notAProxyRequest = ProxyRejection(
        .badRequest, "not_a_proxy_request", "send an absolute URL or CONNECT to this proxy")
    static let headerTooLarge = ProxyRejection(
        .requestHeaderFieldsTooLarge, "header_too_large", "the request head exceeds the proxy's cap")
    static let bodyTooLarge = ProxyRejection(
        .payloadTooLarge, "body_too_large", "the request body exceeds the proxy's cap for intercepted requests")
    static let clientNotPermitted = ProxyRejection(
        .forbidden, "client_not_permitted", "this proxy does not serve this client")
    static let portNotAllowed = ProxyRejection(
        .forbidden, "port_not_allowed", "this proxy does not connect to that port")
    static let misdirected = ProxyRejection(
        .misdirectedRequest, "misdirected_request", "the request names another host than its tunnel")
    static let originUnreachable = ProxyRejection(
        .badGateway, "origin_unreachable", "the origin could not be reached")
    static let originTimeout = ProxyRejection(
        .gatewayTimeout, "origin_timeout", "the origin did not answer in time")
    static let originFailed = ProxyRejection(
        .badGateway, "origin_failed", "the origin's answer could not be relayed")
    static let requestTimeout = ProxyRejection(
        .requestTimeout, "request_timeout", "the request did not arrive in time")
    static let decisionTimeout = ProxyRejection(
        .gatewayTimeout, "decision_timeout", "the interceptor did not decide in time")
    static let certificateUnavailable = ProxyRejection(
        .badGateway, "certificate_unavailable", "no certificate could be issued for this host")

    init(_ status: HTTPResponseStatus, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The head of the answer, for a body of `bodyLength` bytes.
    func head(bodyLength: Int) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(bodyLength))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        return HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    }

    /// The body: `code: message` and a newline.
    var body: String { "\(code): \(message)\n" }
}
