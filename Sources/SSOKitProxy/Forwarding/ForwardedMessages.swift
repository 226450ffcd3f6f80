import NIOHTTP1

/// The heads the proxy writes when it passes a message on: end-to-end fields only, its own framing, `Via`, and
/// `Host` set from the target (RFC 9112 §3.2.2).
enum ForwardedMessages {
    /// How a forwarded request's body is framed towards the origin.
    enum RequestBody {
        /// As the browser framed it (streamed).
        case streamed(ProxiedRequest.BodyFraming)
        /// Already read, `count` bytes.
        case buffered(count: Int)
    }

    /// The request head for the origin: origin-form target, HTTP/1.1, `Connection: close` (the proxy opens one
    /// origin connection per exchange), without the cookies whose names start with one of `privateCookies`.
    static func originRequestHead(
        for request: ProxiedRequest, body: RequestBody, withoutCookies privateCookies: [String] = []
    ) -> HTTPRequestHead {
        var headers = HopByHopFields.endToEnd(request.head.headers)
        PrivateCookies.remove(privateCookies, from: &headers)
        headers.remove(name: "host")
        headers.remove(name: "content-length")
        headers.replaceOrAdd(name: "Host", value: request.hostField)
        switch body {
        case .streamed(.chunked):
            headers.add(name: "Transfer-Encoding", value: "chunked")
        case .streamed(.length(let length)):
            headers.add(name: "Content-Length", value: String(length))
        case .streamed(.none):
            break
        case .buffered(let count):
            if count > 0 || request.head.method == .POST || request.head.method == .PUT {
                headers.add(name: "Content-Length", value: String(count))
            }
        }
        HopByHopFields.addVia(to: &headers, receivedWith: request.head.version)
        headers.add(name: "Connection", value: "close")
        return HTTPRequestHead(
            version: .http1_1, method: request.head.method, uri: request.pathAndQuery, headers: headers)
    }

    /// The response head for the browser and whether the connection must close after it: the origin's status and
    /// end-to-end fields, its `Content-Length` kept, chunked framing otherwise (or close-delimited for an
    /// HTTP/1.0 browser).
    static func clientResponseHead(
        from response: HTTPResponseHead, for request: ProxiedRequest
    ) -> (head: HTTPResponseHead, closeAfter: Bool) {
        var headers = HopByHopFields.endToEnd(response.headers)
        HopByHopFields.addVia(to: &headers, receivedWith: response.version)
        let bodyless = request.expectsNoResponseBody || !response.status.mayHaveResponseBody
        var closeAfter = !request.keepsConnection
        if !bodyless && !headers.contains(name: "content-length") {
            if request.head.version.minor >= 1 {
                headers.add(name: "Transfer-Encoding", value: "chunked")
            } else {
                closeAfter = true
            }
        }
        if response.status == .noContent { headers.remove(name: "content-length") }
        finish(&headers, closeAfter: closeAfter, for: request)
        return (HTTPResponseHead(version: .http1_1, status: response.status, headers: headers), closeAfter)
    }

    /// A non-final (1xx) response passed on as it is, minus hop-by-hop fields.
    static func informationalHead(from response: HTTPResponseHead) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: response.status, headers: HopByHopFields.endToEnd(response.headers))
    }

    /// States the connection's fate: `close` when it ends, `keep-alive` for an HTTP/1.0 browser that asked to keep it.
    static func finish(_ headers: inout HTTPHeaders, closeAfter: Bool, for request: ProxiedRequest) {
        if closeAfter {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if request.head.version.minor == 0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
    }
}
