import Foundation
import SSOKitCore

/// The result of a completed login or refresh: the tokens and the verified ID-token claims.
public struct OpenIDLogin: Sendable {
    /// The tokens issued.
    public var tokens: TokenSet
    /// The verified claims of the ID token.
    public var claims: IDTokenClaims
}

/// A relying party for one provider and client: discovery, keys, login, refresh and revocation in one place.
///
/// ```swift
/// let rp = OpenIDRelyingParty(issuer: "https://idp.example.com", clientID: "cli",
///                             authentication: .none, transport: AsyncHTTPClientTransport())
/// let request = try await rp.authorizationRequest(redirectURI: "http://127.0.0.1:8765/callback")
/// // send the browser to request.url, then with the callback's query:
/// let login = try await rp.completeLogin(callbackQuery: query, request: request)
/// ```
public actor OpenIDRelyingParty {
    /// The issuer identifier.
    public nonisolated let issuer: String
    /// The client ID.
    public nonisolated let clientID: String
    private let authentication: ClientAuthentication
    private let transport: any HTTPTransport
    private let clock: any SSOKitClock
    private let discovery: DiscoveryClient
    private let verifierConfiguration: IDTokenVerifier.Configuration
    private var keyCache: JWKSCache?

    /// Creates a relying party; its ID-token verifier checks `issuer` and `clientID` with the given algorithms
    /// and clock skew.
    /// - Parameters:
    ///   - issuer: The issuer identifier, where discovery starts.
    ///   - clientID: This client's ID.
    ///   - authentication: How the client authenticates at the token endpoint.
    ///   - transport: The HTTP transport for every call to the provider.
    ///   - clock: The clock for token and key lifetimes (the system clock by default).
    ///   - allowedAlgorithms: The ID-token signature algorithms accepted.
    ///   - clockSkew: Tolerated clock difference for the ID token's time checks, in seconds.
    public init(
        issuer: String, clientID: String, authentication: ClientAuthentication, transport: any HTTPTransport,
        clock: any SSOKitClock = SystemClock(), allowedAlgorithms: [JWSAlgorithm] = JWSAlgorithm.all,
        clockSkew: Int64 = 60
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.authentication = authentication
        self.transport = transport
        self.clock = clock
        self.discovery = DiscoveryClient(transport: transport, clock: clock)
        self.verifierConfiguration = IDTokenVerifier.Configuration(
            issuer: issuer, clientID: clientID, allowedAlgorithms: allowedAlgorithms, clockSkew: clockSkew)
    }

    /// The provider's validated discovery document.
    public func metadata() async throws(OIDCError) -> ProviderMetadata {
        try await discovery.metadata(for: issuer)
    }

    /// The ID-token verifier, with the provider's JWKS cache.
    public func verifier() async throws(OIDCError) -> IDTokenVerifier {
        if let keyCache { return IDTokenVerifier(configuration: verifierConfiguration, keys: keyCache, clock: clock) }
        let metadata = try await metadata()
        let cache = try JWKSCache(url: metadata.jwksURI, transport: transport, clock: clock)
        keyCache = cache
        return IDTokenVerifier(configuration: verifierConfiguration, keys: cache, clock: clock)
    }

    /// A token client for the provider's endpoints.
    public func tokenClient() async throws(OIDCError) -> TokenClient {
        let metadata = try await metadata()
        return try TokenClient(
            tokenEndpoint: metadata.tokenEndpoint, revocationEndpoint: metadata.revocationEndpoint, clientID: clientID,
            authentication: authentication, transport: transport, clock: clock)
    }

    /// A fresh authorization request (new state, nonce and S256 PKCE verifier).
    public func authorizationRequest(
        redirectURI: String, scopes: [String] = ["openid"], prompt: [String] = [], loginHint: String? = nil,
        maxAge: Int64? = nil
    ) async throws(OIDCError) -> AuthorizationRequest {
        let metadata = try await metadata()
        return AuthorizationRequest(
            endpoint: metadata.authorizationEndpoint, clientID: clientID, redirectURI: redirectURI, scopes: scopes,
            prompt: prompt, loginHint: loginHint, maxAge: maxAge)
    }

    /// Checks the callback, exchanges the code and verifies the ID token (nonce, `at_hash`, `c_hash`).
    public func completeLogin(callbackQuery: String, request: AuthorizationRequest) async throws(OIDCError)
        -> OpenIDLogin
    {
        let metadata = try await metadata()
        let callback = try AuthorizationCallback(
            query: callbackQuery, request: request, issuer: issuer,
            issuerParameterRequired: metadata.authorizationResponseIssuerParameterSupported)
        let tokens = try await tokenClient().exchangeCode(
            callback.code, redirectURI: request.redirectURI, codeVerifier: request.pkce.verifier)
        var expectations = request.idTokenExpectations
        expectations.accessToken = tokens.accessToken
        expectations.authorizationCode = callback.code
        return try await verified(tokens, expectations: expectations)
    }

    /// Verifies the ID token of a token response obtained another way (device grant).
    public func verified(_ tokens: TokenSet, expectations: IDTokenExpectations) async throws(OIDCError) -> OpenIDLogin {
        guard let idToken = tokens.idToken else {
            throw OIDCError(.invalidTokenResponse, "the token response has no id_token")
        }
        var expectations = expectations
        expectations.accessToken = tokens.accessToken
        let claims = try await verifier().verify(idToken, expecting: expectations)
        return OpenIDLogin(tokens: tokens, claims: claims)
    }

    /// Refreshes; a new ID token must keep `iss`, `sub`, `aud` of `previousClaims` (OIDC Core §12.2), and when
    /// the provider sends none the previous claims stand.
    public func refresh(_ tokens: TokenSet, previousClaims: IDTokenClaims) async throws(OIDCError) -> OpenIDLogin {
        guard let refreshToken = tokens.refreshToken else {
            throw OIDCError(.invalidGrant, "there is no refresh token to use")
        }
        let refreshed = try await tokenClient().refresh(refreshToken)
        guard let idToken = refreshed.idToken else { return OpenIDLogin(tokens: refreshed, claims: previousClaims) }
        let claims = try await verifier().verify(
            idToken, expecting: IDTokenExpectations(accessToken: refreshed.accessToken, previousClaims: previousClaims))
        return OpenIDLogin(tokens: refreshed, claims: claims)
    }

    /// Revokes the refresh token, then the access token, at the provider; throws the first failure. For a logout,
    /// ``revokeSession(refreshToken:accessToken:timeout:)`` reports instead of throwing and has a deadline.
    public func revoke(_ tokens: TokenSet) async throws(OIDCError) {
        try await revokeInOrder(refreshToken: tokens.refreshToken, accessToken: tokens.accessToken)
    }

    /// UserInfo claims for a login, tied to its subject.
    public func userInfo(for login: OpenIDLogin) async throws(OIDCError) -> [String: JSONValue] {
        guard let endpoint = try await metadata().userInfoEndpoint else {
            throw OIDCError(.unsupportedFeature, "the provider has no userinfo endpoint")
        }
        return try await UserInfoClient(endpoint: endpoint, transport: transport).fetch(
            accessToken: login.tokens.accessToken, expectedSubject: login.claims.subject)
    }

    /// A device-grant client for the provider.
    public func deviceClient(sleep: DeviceAuthorizationClient.Sleep? = nil) async throws(OIDCError)
        -> DeviceAuthorizationClient
    {
        guard let endpoint = try await metadata().deviceAuthorizationEndpoint else {
            throw OIDCError(.unsupportedFeature, "the provider has no device authorization endpoint")
        }
        if let sleep {
            return try DeviceAuthorizationClient(
                endpoint: endpoint, tokenClient: try await tokenClient(), clock: clock, sleep: sleep)
        }
        return try DeviceAuthorizationClient(endpoint: endpoint, tokenClient: try await tokenClient(), clock: clock)
    }
}
