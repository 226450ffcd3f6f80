import SSOKitOIDC

/// An OpenID Connect client registered with the development IdP (the values of OAuth 2.0 Dynamic Client
/// Registration, RFC 7591 §2, given in configuration instead).
public struct OIDCClientRegistration: Sendable {
    /// How the client authenticates at the token and revocation endpoints. A client with a secret may send it in
    /// a Basic header or in the form whichever it registered (RFC 6749 §2.3.1 makes Basic mandatory to support);
    /// the registered method is what it should use.
    public enum Authentication: Sendable {
        /// A public client (a native app, RFC 8252): only `client_id`, with PKCE.
        case none
        /// `client_secret_basic` (RFC 6749 §2.3.1).
        case clientSecretBasic(String)
        /// `client_secret_post` (RFC 6749 §2.3.1).
        case clientSecretPost(String)
        /// `private_key_jwt` (RFC 7523 §2.2, OIDC Core §9): assertions signed by one of these keys.
        case privateKeyJWT(JSONWebKeySet)

        /// The `token_endpoint_auth_method` name.
        public var name: String {
            switch self {
            case .none: "none"
            case .clientSecretBasic: "client_secret_basic"
            case .clientSecretPost: "client_secret_post"
            case .privateKeyJWT: "private_key_jwt"
            }
        }
    }

    /// The `client_id`.
    public var clientID: String
    /// The authentication method and its secret or keys.
    public var authentication: Authentication
    /// Redirect URIs, compared exactly, except that an `http` URI on 127.0.0.1 or [::1] registered without a port
    /// matches any port (RFC 8252 §7.3).
    public var redirectURIs: [String]
    /// Where RP-Initiated Logout may send the browser back to, matched like ``redirectURIs``.
    public var postLogoutRedirectURIs: [String]
    /// The scopes the client may ask for (default: every scope the IdP supports).
    public var allowedScopes: Set<String>

    /// Creates a registration.
    public init(
        clientID: String, authentication: Authentication, redirectURIs: [String],
        postLogoutRedirectURIs: [String] = [], allowedScopes: Set<String> = ScopeClaims.supportedScopes
    ) {
        self.clientID = clientID
        self.authentication = authentication
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.allowedScopes = allowedScopes
    }
}
