import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC
import SSOKitTokenCache

/// How tokens are handed to a native app: a 200 with `Cache-Control: no-store`, a small JSON body
/// `{"access_token", "id_token", "token_type", "expires_in"}` and the same values as headers, the way the system
/// returns an SSO extension's answer to `ASAuthorizationSingleSignOnCredential`; or, for a credential challenge,
/// `Authorization: Bearer`.
enum TokenAnswer {
    static let accessToken = HTTPField.Name("access_token")
    static let idToken = HTTPField.Name("id_token")
    static let tokenType = HTTPField.Name("token_type")
    static let expiresIn = HTTPField.Name("expires_in")

    static let noStore = HTTPField(name: .cacheControl, value: "no-store")
    static let json = HTTPField(name: .contentType, value: "application/json")

    /// The 200 answer for a prepared token set that expires in `expiresIn` seconds (decimal), if it says.
    static func response(_ prepared: PreparedTokenAnswer, expiresIn: String?) -> CompactHTTPResponse {
        var body = TokenJSON(continuing: prepared.bodyPrefix)
        var fields = HTTPFields()
        fields.reserveCapacity(6)
        fields.append(noStore)
        fields.append(json)
        fields.append(contentsOf: prepared.fields)
        if let expiresIn {
            body.number("expires_in", expiresIn)
            if let name = Self.expiresIn { fields.append(HTTPField(name: name, value: expiresIn)) }
        }
        return CompactHTTPResponse(status: 200, headerFields: fields, body: body.finish())
    }

    /// The seconds until `expiry` from `now`, in decimal; nil when the expiry is unknown.
    static func expiresIn(_ expiry: Date?, now: Date) -> String? {
        expiry.map { String(Int64(max(0, $0.timeIntervalSince(now)).rounded(.down))) }
    }

    /// A 200 JSON answer with `Cache-Control: no-store` (logout, configurationRemoved, SAML sessions).
    static func jsonResponse(_ object: [String: JSONValue]) -> CompactHTTPResponse {
        var fields = HTTPFields()
        fields[.cacheControl] = "no-store"
        fields[.contentType] = "application/json"
        return CompactHTTPResponse(
            status: 200, headerFields: fields, body: Array(JSONValue.object(object).jsonText.utf8))
    }

    /// A 302 to `location`, no body.
    static func redirect(_ location: URL) -> CompactHTTPResponse {
        var fields = HTTPFields()
        fields[.location] = location.absoluteString
        fields[.cacheControl] = "no-store"
        return CompactHTTPResponse(status: 302, headerFields: fields)
    }
}
