import Foundation

/// An OpenID Connect authorization request that passed every check (OIDC Core §3.1.2.2) and waits for the user.
struct OIDCAuthorization: Sendable {
    let clientID: String
    let redirectURI: String
    let scopes: [String]
    let state: String?
    let nonce: String?
    /// The S256 `code_challenge` (RFC 7636 §4.3).
    let codeChallenge: String
    let prompt: Set<String>
    let maxAge: Int?
}

/// A SAML AuthnRequest that passed every check and waits for the user.
struct SAMLAuthentication: Sendable {
    let serviceProviderEntityID: String
    let requestID: String
    let assertionConsumerServiceURL: String
    let relayState: String?
    let nameIDFormat: String?
    let forceAuthn: Bool
    let isPassive: Bool
}

/// An RP-Initiated Logout that waits for the user to confirm it.
struct PendingLogout: Sendable {
    /// Where to send the browser afterwards, with `state`, if anywhere.
    let postLogoutRedirectURI: String?
    let state: String?
}

/// What a page served to the browser waits for: a login form's credentials, or a logout confirmation.
enum PendingInteraction: Sendable {
    case oidcLogin(OIDCAuthorization)
    case samlLogin(SAMLAuthentication)
    case logout(PendingLogout)
}
