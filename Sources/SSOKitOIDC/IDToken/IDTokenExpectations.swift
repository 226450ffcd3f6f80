/// What one authentication expects of its ID token, beyond the verifier's fixed configuration.
public struct IDTokenExpectations: Sendable {
    /// The `nonce` sent in the authentication request; when set, the token must carry exactly this value.
    public var nonce: String?
    /// The `max_age` sent, in seconds; when set, `auth_time` is required and must be recent enough.
    public var maxAge: Int64?
    /// The access token issued with the ID token; its hash is checked against `at_hash` when both exist.
    public var accessToken: String?
    /// The authorization code; its hash is checked against `c_hash` when both exist.
    public var authorizationCode: String?
    /// The claims of the ID token from the original authentication, when this token came from a refresh:
    /// `iss`, `sub` and `aud` must not change (OIDC Core §12.2).
    public var previousClaims: IDTokenClaims?

    /// Creates expectations; every member is optional.
    public init(
        nonce: String? = nil, maxAge: Int64? = nil, accessToken: String? = nil, authorizationCode: String? = nil,
        previousClaims: IDTokenClaims? = nil
    ) {
        self.nonce = nonce
        self.maxAge = maxAge
        self.accessToken = accessToken
        self.authorizationCode = authorizationCode
        self.previousClaims = previousClaims
    }
}
