import HTTPTypes
import NIOHTTP1

/// Between the proxy's NIO messages and the swift-http-types values its interceptor sees.
enum InterceptionMessages {
    /// The request the interceptor sees: end-to-end fields, `Host` moved into the authority.
    static func interceptedRequest(
        _ request: ProxiedRequest, body: [UInt8], prefix: InterceptPrefix, throughTLS: Bool
    ) -> InterceptedRequest? {
        guard let method = HTTPRequest.Method(request.head.method.rawValue) else { return nil }
        var fields = HTTPFields()
        for (name, value) in HopByHopFields.endToEnd(request.head.headers) {
            guard let fieldName = HTTPField.Name(name), fieldName.canonicalName != "host" else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        let httpRequest = HTTPRequest(
            method: method, scheme: request.origin.scheme, authority: request.hostField,
            path: request.pathAndQuery, headerFields: fields)
        return InterceptedRequest(
            request: httpRequest, body: body, prefix: prefix, arrivedThroughTLSInterception: throughTLS)
    }

    /// The head of the interceptor's answer: its status and end-to-end fields, `Content-Length` for `bodyLength`,
    /// and whether the connection closes after it.
    static func responseHead(
        _ response: HTTPResponse, bodyLength: Int, for request: ProxiedRequest
    ) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        for field in response.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        headers = HopByHopFields.endToEnd(headers)
        headers.remove(name: "content-length")
        let status = HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase)
        if status.mayHaveResponseBody { headers.add(name: "Content-Length", value: String(bodyLength)) }
        ForwardedMessages.finish(&headers, closeAfter: !request.keepsConnection, for: request)
        return HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    }
}
