/// The two kinds of Extensible SSO payload (the `Type` key).
public enum SSOPayloadType: String, Sendable, Hashable, CaseIterable {
    /// `Redirect`: requests to the payload's URL prefixes go to the extension (OIDC, OAuth, SAML).
    case redirect = "Redirect"
    /// `Credential`: authentication challenges from the payload's hosts go to the extension.
    case credential = "Credential"

    /// `redirect` or `credential`, as the CLI prints it.
    public var name: String {
        switch self {
        case .redirect: "redirect"
        case .credential: "credential"
        }
    }
}
