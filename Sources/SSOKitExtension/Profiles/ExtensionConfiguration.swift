/// What SSOKit reads from a payload's ExtensionData: the identity provider, which apps are served, and the right
/// that gates tokens. The key names are fixed by the CLI contract.
public struct ExtensionConfiguration: Sendable {
    /// The identity provider and how to talk to it (`protocol` and its keys).
    public var identityProvider: IdentityProviderConfiguration
    /// Which calling apps are served.
    public var applications: ApplicationAccessPolicy
    /// The identifier of a persisted right (SSOKitRights) that must be authorized before tokens are released to an
    /// app (`token_right`), if any.
    public var tokenRight: String?

    /// Creates a configuration.
    public init(
        identityProvider: IdentityProviderConfiguration, applications: ApplicationAccessPolicy = .init(),
        tokenRight: String? = nil
    ) {
        self.identityProvider = identityProvider
        self.applications = applications
        self.tokenRight = tokenRight
    }
}

/// The identity provider of a payload (`protocol`).
public enum IdentityProviderConfiguration: Sendable {
    /// `oidc`: an OpenID Provider.
    case oidc(OIDCProviderConfiguration)
    /// `saml`: a SAML 2.0 IdP.
    case saml(SAMLProviderConfiguration)

    /// `oidc` or `saml`.
    public var protocolName: String {
        switch self {
        case .oidc: "oidc"
        case .saml: "saml"
        }
    }
}
