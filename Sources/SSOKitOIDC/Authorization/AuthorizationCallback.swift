import Foundation
import SSOKitCore

/// The redirect back from the provider, checked against the request that started it.
public struct AuthorizationCallback: Sendable {
    /// The authorization code.
    public let code: String

    /// Parses and checks a callback's query (`code=...&state=...[&iss=...]` or `error=...`).
    ///
    /// - `state` must equal the request's, compared in constant time;
    /// - RFC 9207: `iss`, when present, must equal the issuer; it is required when the provider advertises
    ///   `authorization_response_iss_parameter_supported`;
    /// - an `error` maps to the typed error of the same name (`access_denied`, `login_required`, ...).
    public init(
        query: String, request: AuthorizationRequest, issuer: String, issuerParameterRequired: Bool
    ) throws(OIDCError) {
        guard let pairs = FormURLEncoding.decode(query) else {
            throw OIDCError(.invalidCallback, "the callback query is malformed")
        }
        var parameters: [String: String] = [:]
        for (name, value) in pairs {
            guard parameters.updateValue(value, forKey: name) == nil else {
                throw OIDCError(.invalidCallback, "the callback repeats the \(name) parameter")
            }
        }
        if let issuerParameter = parameters["iss"] {
            guard issuerParameter == issuer else {
                throw OIDCError(.issuerMismatch, "the callback's iss is not the configured issuer (RFC 9207)")
            }
        } else if issuerParameterRequired {
            throw OIDCError(.missingIssuerParameter, "the provider advertises RFC 9207 but the callback has no iss")
        }
        guard let state = parameters["state"], ConstantTime.equals(state, request.state) else {
            throw OIDCError(.stateMismatch, "the callback's state differs from the one sent")
        }
        if let error = parameters["error"] {
            throw OAuthErrorMapping.error(code: error, description: parameters["error_description"])
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw OIDCError(.invalidCallback, "the callback has neither code nor error")
        }
        self.code = code
    }

    /// Parses a full redirect URL (`http://127.0.0.1:PORT/callback?...`).
    public init(url: URL, request: AuthorizationRequest, issuer: String, issuerParameterRequired: Bool)
        throws(OIDCError)
    {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        try self.init(query: query, request: request, issuer: issuer, issuerParameterRequired: issuerParameterRequired)
    }
}
