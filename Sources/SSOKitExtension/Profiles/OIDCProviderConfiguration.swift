import SSOKitCore
import SSOKitOIDC

/// An OpenID Provider and client from ExtensionData (`protocol` `oidc`): `issuer`, `client_id`, `client_secret` or
/// `client_secret_file`, `client_auth`, `scopes`, `redirect_uri`, and SSOKit's `login_interaction`.
public struct OIDCProviderConfiguration: Sendable, Hashable {
    /// How the adapter asks the user to log in when there is no IdP session (`login_interaction`).
    public enum LoginInteraction: String, Sendable, Hashable, CaseIterable {
        /// Fill in the IdP's login form with credentials the host supplies (the default); a browser when the IdP's
        /// page holds no login form.
        case form
        /// Always send the user to the authorization URL in a browser (PKCE), resumed with the callback URL.
        case browser
    }

    /// How the client authenticates at the token endpoint (`client_auth`).
    public enum ClientAuthenticationMethod: String, Sendable, Hashable, CaseIterable {
        /// A public client.
        case none
        /// HTTP Basic with the client secret.
        case clientSecretBasic = "client_secret_basic"
        /// The client secret in the request body.
        case clientSecretPost = "client_secret_post"
        /// A JWT assertion signed with a key the host provides (a right's key, for instance).
        case privateKeyJWT = "private_key_jwt"
    }

    /// The issuer identifier: https, or http on a loopback host.
    public var issuer: String
    /// The client ID.
    public var clientID: String
    /// The client authentication; by default `client_secret_basic` with a secret, else `none`.
    public var clientAuthenticationMethod: ClientAuthenticationMethod
    /// The client secret, for the two secret methods.
    public var clientSecret: ProfileSecret?
    /// The scopes to request; always holds `openid`.
    public var scopes: [String]
    /// The redirect URI registered for the extension, if the profile fixes one; native logins need it.
    public var redirectURI: String?
    /// How the user logs in when the IdP session does not suffice.
    public var loginInteraction: LoginInteraction

    /// Creates a configuration.
    public init(
        issuer: String, clientID: String, clientAuthenticationMethod: ClientAuthenticationMethod = .none,
        clientSecret: ProfileSecret? = nil, scopes: [String] = ["openid"], redirectURI: String? = nil,
        loginInteraction: LoginInteraction = .form
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientAuthenticationMethod = clientAuthenticationMethod
        self.clientSecret = clientSecret
        self.scopes = scopes
        self.redirectURI = redirectURI
        self.loginInteraction = loginInteraction
    }

    /// SSOKitOIDC's client authentication for this client; nil for `private_key_jwt` without a `signer`.
    public func clientAuthentication(signer: (any ClientAssertionSigner)? = nil) -> ClientAuthentication? {
        switch clientAuthenticationMethod {
        case .none: return ClientAuthentication.none
        case .clientSecretBasic: return clientSecret.map { .clientSecretBasic($0.value) }
        case .clientSecretPost: return clientSecret.map { .clientSecretPost($0.value) }
        case .privateKeyJWT: return signer.map { .privateKeyJWT($0) }
        }
    }

    /// A relying party for this provider and client; nil for `private_key_jwt` without a `signer`.
    public func relyingParty(
        transport: any HTTPTransport, clock: any SSOKitClock = SystemClock(), signer: (any ClientAssertionSigner)? = nil
    ) -> OpenIDRelyingParty? {
        guard let authentication = clientAuthentication(signer: signer) else { return nil }
        return OpenIDRelyingParty(
            issuer: issuer, clientID: clientID, authentication: authentication, transport: transport, clock: clock)
    }
}
