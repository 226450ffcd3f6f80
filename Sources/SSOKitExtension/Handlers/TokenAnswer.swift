import Foundation
import HTTPTypes
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

    /// The 200 answer for `tokens`.
    static func response(_ tokens: CachedTokens, now: Date) throws(AuthorizationFailure) -> CompactHTTPResponse {
        let access = try headerSafe(tokens.accessToken, "access token")
        let type = tokens.tokenType ?? "Bearer"
        var body: [String: JSONValue] = ["access_token": .string(access), "token_type": .string(type)]
        var fields = HTTPFields()
        fields.reserveCapacity(7)
        fields[.cacheControl] = "no-store"
        fields[.contentType] = "application/json"
        if let name = accessToken { fields[name] = access }
        if let idToken = tokens.idToken {
            let value = try headerSafe(idToken, "ID token")
            body["id_token"] = .string(value)
            if let name = Self.idToken { fields[name] = value }
        }
        guard HTTPHeaderValue.isVisibleASCII(type) else {
            throw AuthorizationFailure(.failed, .idpError, "the token type holds characters a header cannot carry")
        }
        if let name = tokenType { fields[name] = type }
        if let expiry = tokens.accessTokenExpiresAt {
            let seconds = Int64(max(0, expiry.timeIntervalSince(now)).rounded(.down))
            body["expires_in"] = .integer(seconds)
            if let name = expiresIn { fields[name] = String(seconds) }
        }
        return CompactHTTPResponse(status: 200, headerFields: fields, body: Array(JSONValue.object(body).jsonText.utf8))
    }

    /// `Authorization: Bearer <access token>`.
    static func authorizationHeaders(_ tokens: CachedTokens) throws(AuthorizationFailure) -> HTTPFields {
        let access = try headerSafe(tokens.accessToken, "access token")
        var fields = HTTPFields()
        fields[.authorization] = "Bearer " + access
        return fields
    }

    /// A token that can stand in a header as it is: present, visible ASCII only.
    private static func headerSafe(_ token: String?, _ what: String) throws(AuthorizationFailure) -> String {
        guard let token, !token.isEmpty else {
            throw AuthorizationFailure(.failed, .idpError, "the session holds no \(what)")
        }
        guard HTTPHeaderValue.isVisibleASCII(token) else {
            throw AuthorizationFailure(.failed, .idpError, "the \(what) holds characters a header cannot carry")
        }
        return token
    }

    /// A 200 JSON answer with `Cache-Control: no-store` (logout, configurationRemoved, SAML sessions).
    static func json(_ object: [String: JSONValue]) -> CompactHTTPResponse {
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
