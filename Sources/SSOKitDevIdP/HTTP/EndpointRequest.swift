import Foundation
import HTTPTypes
import Hummingbird

/// One HTTP request as the endpoints see it: its body already collected under a cap.
struct EndpointRequest: Sendable {
    let method: HTTPRequest.Method
    let path: String
    /// The raw query string (after `?`), as the SAML redirect binding must verify it.
    let query: String?
    let headers: HTTPFields
    let body: [UInt8]

    /// The value of the cookie `name`.
    func cookie(_ name: String) -> String? {
        Cookies(from: headers[values: .cookie])[name]?.value
    }

    /// The query string's parameters.
    func queryParameters() throws(DevIdPError) -> Parameters {
        try Parameters(encoded: query ?? "")
    }

    /// The form body's parameters; `invalid_request` unless the body is `application/x-www-form-urlencoded` UTF-8.
    func formParameters() throws(DevIdPError) -> Parameters {
        let type = headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "application/x-www-form-urlencoded" else {
            throw DevIdPError(.invalidRequest, "the body must be application/x-www-form-urlencoded")
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw DevIdPError(.invalidRequest, "the body is not UTF-8")
        }
        return try Parameters(encoded: text)
    }

    /// GET: the query's parameters; POST: the form's (OIDC Core §3.1.2.1 allows both for authorization requests).
    func parameters() throws(DevIdPError) -> Parameters {
        method == .post ? try formParameters() : try queryParameters()
    }
}
