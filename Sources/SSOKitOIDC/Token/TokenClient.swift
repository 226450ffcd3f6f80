import Foundation
import HTTPTypes
import SSOKitCore

/// Talks to a provider's token and revocation endpoints.
public struct TokenClient: Sendable {
    /// The `token_endpoint`.
    public let tokenEndpoint: URL
    /// The `revocation_endpoint`, when the provider has one.
    public let revocationEndpoint: URL?
    /// `client_id`.
    public let clientID: String
    /// How the client authenticates.
    public let authentication: ClientAuthentication
    private let transport: any HTTPTransport
    private let clock: any SSOKitClock

    /// Creates a client; endpoints must be https (or http on a loopback host).
    public init(
        tokenEndpoint: URL, revocationEndpoint: URL? = nil, clientID: String, authentication: ClientAuthentication,
        transport: any HTTPTransport, clock: any SSOKitClock = SystemClock()
    ) throws(OIDCError) {
        guard EndpointSecurity.isAllowed(tokenEndpoint), revocationEndpoint.map(EndpointSecurity.isAllowed) ?? true
        else {
            throw OIDCError(.insecureURL, "token endpoints must be https (or http on a loopback host)")
        }
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.clientID = clientID
        self.authentication = authentication
        self.transport = transport
        self.clock = clock
    }

    /// Exchanges an authorization code (RFC 6749 §4.1.3 with the PKCE verifier of RFC 7636 §4.5).
    public func exchangeCode(_ code: String, redirectURI: String, codeVerifier: String) async throws(OIDCError)
        -> TokenSet
    {
        try await requestTokens([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", codeVerifier),
        ])
    }

    /// Uses a refresh token (RFC 6749 §6); a rotated refresh token replaces the old one, and when the response
    /// carries none the old one is kept.
    public func refresh(_ refreshToken: String, scope: String? = nil) async throws(OIDCError) -> TokenSet {
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { form.append(("scope", scope)) }
        var tokens = try await requestTokens(form)
        if tokens.refreshToken == nil { tokens.refreshToken = refreshToken }
        return tokens
    }

    /// Revokes a token (RFC 7009 §2.1); an unknown or already revoked token is success, as the RFC says.
    public func revoke(_ token: String, typeHint: String? = nil) async throws(OIDCError) {
        guard let revocationEndpoint else {
            throw OIDCError(.unsupportedFeature, "the provider has no revocation endpoint")
        }
        var form = [("token", token)]
        if let typeHint { form.append(("token_type_hint", typeHint)) }
        let response = try await post(form, to: revocationEndpoint)
        guard response.response.status.code == 200 else {
            let object = try? ProviderHTTP.jsonObject(response.body, failure: .unexpectedStatus, what: "response")
            if let error = object?["error"]?.stringValue {
                throw OAuthErrorMapping.error(code: error, description: object?["error_description"]?.stringValue)
            }
            throw OIDCError(.unexpectedStatus, "the revocation endpoint answered HTTP \(response.response.status.code)")
        }
    }

    /// Posts a grant to the token endpoint and parses the answer.
    func requestTokens(_ form: [(String, String)]) async throws(OIDCError) -> TokenSet {
        let response = try await post(form, to: tokenEndpoint)
        return try TokenResponseParser.parse(response, now: clock.now)
    }

    /// Posts a form with client authentication to `url`.
    func post(_ form: [(String, String)], to url: URL) async throws(OIDCError) -> HTTPTransportResponse {
        var headers: [(String, String)] = []
        var body = form
        try await authentication.apply(
            clientID: clientID, audience: tokenEndpoint.absoluteString, now: clock.now, headers: &headers, form: &body)
        var request = try ProviderHTTP.request(.post, url)
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.headerFields[.cacheControl] = "no-store"
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { request.headerFields.append(HTTPField(name: field, value: value)) }
        }
        return try await ProviderHTTP.send(
            request, body: Array(FormURLEncoding.encode(body).utf8), transport: transport, failure: .transportFailed)
    }
}
