import SSOKitCore
import SSOKitOIDC

extension DevIdPEndpoints {
    /// The token endpoint's client authentication methods (and the revocation endpoint's).
    static let clientAuthenticationMethods = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]

    /// `GET /.well-known/openid-configuration` (OIDC Discovery 1.0 §3, RFC 9207 §3, RFC 8414).
    func discovery() -> EndpointResponse {
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        let claims = Set(["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "sid"])
            .union(ScopeClaims.claimsByScope.values.joined())
        return .json([
            "issuer": .string(site.issuer),
            "authorization_endpoint": .string(site.authorization),
            "token_endpoint": .string(site.token),
            "userinfo_endpoint": .string(site.userInfo),
            "jwks_uri": .string(site.jwks),
            "revocation_endpoint": .string(site.revocation),
            "end_session_endpoint": .string(site.endSession),
            "scopes_supported": strings(ScopeClaims.supportedScopes.sorted()),
            "response_types_supported": strings(["code"]),
            "response_modes_supported": strings(["query"]),
            "grant_types_supported": strings(["authorization_code", "refresh_token"]),
            "subject_types_supported": strings(["public"]),
            "id_token_signing_alg_values_supported": strings(["RS256"]),
            "token_endpoint_auth_methods_supported": strings(Self.clientAuthenticationMethods),
            "token_endpoint_auth_signing_alg_values_supported": strings(JWSAlgorithm.all.map(\.name)),
            "revocation_endpoint_auth_methods_supported": strings(Self.clientAuthenticationMethods),
            "revocation_endpoint_auth_signing_alg_values_supported": strings(JWSAlgorithm.all.map(\.name)),
            "code_challenge_methods_supported": strings(["S256"]),
            "prompt_values_supported": strings(["none", "login"]),
            "claims_supported": strings(claims.sorted()),
            "claims_parameter_supported": .bool(false),
            "request_parameter_supported": .bool(false),
            "request_uri_parameter_supported": .bool(false),
            "authorization_response_iss_parameter_supported": .bool(true),
        ])
    }

    /// `GET /jwks`: the ID-token key (RFC 7517 §5).
    func jwks() -> EndpointResponse {
        .json(["keys": .array([.object(configuration.keys.publicJWK)])])
    }
}
