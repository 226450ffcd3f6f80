import HTTPTypes
import Hummingbird
import SSOKitCore
import SSOKitOIDC

/// One HTTP response from an endpoint. Every response is `no-store` and `nosniff`, with no referrer.
struct EndpointResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: [UInt8]

    init(status: HTTPResponse.Status, contentType: String?, body: [UInt8]) {
        self.status = status
        self.body = body
        var headers = HTTPFields()
        if let contentType { headers[.contentType] = contentType }
        headers[.cacheControl] = "no-store"
        headers[.pragma] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        self.headers = headers
    }

    /// A JSON object.
    static func json(_ members: [String: JSONValue], status: HTTPResponse.Status = .ok) -> EndpointResponse {
        EndpointResponse(
            status: status, contentType: "application/json", body: Array(JSONValue.object(members).jsonText.utf8))
    }

    /// An OAuth error object (RFC 6749 §5.2): `{"error": code, "error_description": reason}`.
    static func oauthError(_ error: DevIdPError, status: HTTPResponse.Status = .badRequest) -> EndpointResponse {
        json(["error": .string(error.code.description), "error_description": .string(error.reason)], status: status)
    }

    /// An HTML page, framed by nobody, with its own Content-Security-Policy.
    static func html(_ page: HTMLPage, status: HTTPResponse.Status = .ok) -> EndpointResponse {
        var response = EndpointResponse(
            status: status, contentType: "text/html; charset=utf-8", body: Array(page.html.utf8))
        response.headers[.contentSecurityPolicy] = page.contentSecurityPolicy
        response.headers[.xFrameOptions] = "DENY"
        return response
    }

    /// A redirect: 302 Found after a GET, 303 See Other after a POST (so that the browser follows with a GET).
    static func redirect(to location: String, afterPOST: Bool) -> EndpointResponse {
        var response = EndpointResponse(status: afterPOST ? .seeOther : .found, contentType: nil, body: [])
        response.headers[.location] = location
        return response
    }

    /// Adds a `Set-Cookie` header.
    mutating func setCookie(_ cookie: Cookie) {
        headers.append(HTTPField(name: .setCookie, value: cookie.description))
    }
}

extension HTTPField.Name {
    // Valid token literals: the failable initializer only refuses names with characters outside RFC 9110's tchar.
    static let pragma = HTTPField.Name("Pragma")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
