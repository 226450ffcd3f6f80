import Foundation
import HTTPTypes
import SSOKitCore

/// Reads a token endpoint's answer (RFC 6749 §5.1 and §5.2).
enum TokenResponseParser {
    static func parse(_ response: HTTPTransportResponse, now: Date) throws(OIDCError) -> TokenSet {
        let status = response.response.status.code
        let object = try? ProviderHTTP.jsonObject(response.body, failure: .invalidTokenResponse, what: "token response")
        guard status == 200 else {
            if let error = object?["error"]?.stringValue {
                throw OAuthErrorMapping.error(code: error, description: object?["error_description"]?.stringValue)
            }
            throw OIDCError(.unexpectedStatus, "the token endpoint answered HTTP \(status)")
        }
        guard let object else { throw OIDCError(.invalidTokenResponse, "the token response is not a JSON object") }
        guard let accessToken = object["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw OIDCError(.invalidTokenResponse, "the token response has no access_token")
        }
        guard let tokenType = object["token_type"]?.stringValue else {
            throw OIDCError(.invalidTokenResponse, "the token response has no token_type")
        }
        guard tokenType.lowercased() == "bearer" else {
            throw OIDCError(.unexpectedTokenType, "the token type is not Bearer")
        }
        var expiresAt: Date?
        if let expiresIn = object["expires_in"] {
            // Some providers send the number as a string; accept only whole non-negative seconds either way.
            guard let seconds = expiresIn.int64Value ?? expiresIn.stringValue.flatMap({ Int64($0) }), seconds >= 0
            else {
                throw OIDCError(.invalidTokenResponse, "expires_in is not a whole number of seconds")
            }
            expiresAt = now.addingTimeInterval(TimeInterval(seconds))
        }
        func optionalString(_ name: String) throws(OIDCError) -> String? {
            guard let value = object[name], value != .null else { return nil }
            guard let string = value.stringValue else {
                throw OIDCError(.invalidTokenResponse, "\(name) is not a string")
            }
            return string
        }
        return TokenSet(
            accessToken: accessToken, tokenType: "Bearer", accessTokenExpiresAt: expiresAt,
            refreshToken: try optionalString("refresh_token"), idToken: try optionalString("id_token"),
            scope: try optionalString("scope"))
    }
}
