import HTTPTypes
import SSOKitCore
import SSOKitOIDC

extension DevIdPEndpoints {
    /// `GET|POST /userinfo` (OIDC Core §5.3): the claims the access token's scopes release. The token comes in an
    /// `Authorization: Bearer` header, or in a POST form's `access_token` (RFC 6750 §2.1, §2.2), never both.
    func userInfo(_ request: EndpointRequest) async -> EndpointResponse {
        let header = request.headers[.authorization]
        let form = request.method == .post ? try? request.formParameters() : nil
        let token: String
        switch (header, form?["access_token"]) {
        case (let header?, nil):
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                return Self.bearerError(DevIdPError(.invalidRequest, "the Authorization header is not Bearer"))
            }
            token = String(parts[1])
        case (nil, let formToken?):
            token = formToken
        case (nil, nil):
            // RFC 6750 §3.1: a request without credentials gets a challenge with no error code.
            var response = EndpointResponse.json(["error": .string("invalid_token")], status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer realm=\"ssokit-dev-idp\""
            return response
        default:
            return Self.bearerError(DevIdPError(.invalidRequest, "the access token is sent in more than one way"))
        }
        guard let grant = await stores.grants.access(token, now: now), let user = users[grant.username] else {
            return Self.bearerError(DevIdPError(.invalidToken, "the access token is invalid, expired or revoked"))
        }
        guard grant.scopes.contains("openid") else {
            return Self.bearerError(DevIdPError(.invalidToken, "the access token was not granted the openid scope"))
        }
        return .json(ScopeClaims.claims(of: user, scopes: grant.scopes))
    }

    /// An RFC 6750 §3 error: 400 for `invalid_request`, 401 with the challenge otherwise.
    private static func bearerError(_ error: DevIdPError) -> EndpointResponse {
        let status: HTTPResponse.Status = error.code == .invalidRequest ? .badRequest : .unauthorized
        var response = EndpointResponse.oauthError(error, status: status)
        response.headers[.wwwAuthenticate] =
            "Bearer realm=\"ssokit-dev-idp\", error=\"\(error.code)\", error_description=\"\(error.reason)\""
        return response
    }
}
