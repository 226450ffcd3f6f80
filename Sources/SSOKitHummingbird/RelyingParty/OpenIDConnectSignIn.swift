import SSOKitOIDC

/// The OpenID Provider a service signs its users in with: the client as registered there (its redirect URI must be
/// the configuration's base URL plus ``RelyingPartyPaths/openIDConnectCallback``) and the scopes asked for.
public struct OpenIDConnectSignIn: Sendable {
    /// The relying party: discovery, PKCE, the code exchange and ID-token verification.
    public var relyingParty: OpenIDRelyingParty
    /// The scopes asked for; `openid` is always sent.
    public var scopes: [String]

    /// Signs users in through `relyingParty`, asking for `scopes`.
    public init(relyingParty: OpenIDRelyingParty, scopes: [String] = ["openid", "profile", "email"]) {
        self.relyingParty = relyingParty
        self.scopes = scopes
    }
}
