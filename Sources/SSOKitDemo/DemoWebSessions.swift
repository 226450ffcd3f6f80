import SSOKitCore
import SSOKitOIDC

/// What the demo web apps remember: logins in flight (OIDC by `state`, SAML by RelayState) and signed-in browsers
/// by session cookie.
actor DemoWebSessions {
    private var oidcLogins: [String: AuthorizationRequest] = [:]
    private var samlLogins: [String: String] = [:]
    private var names: [String: String] = [:]

    func startOIDCLogin(_ request: AuthorizationRequest) { oidcLogins[request.state] = request }

    /// The login `state` names; each is used once.
    func finishOIDCLogin(state: String) -> AuthorizationRequest? { oidcLogins.removeValue(forKey: state) }

    /// Keeps a SAML AuthnRequest's ID under a fresh RelayState and returns that RelayState.
    func startSAMLLogin(requestID: String) -> String {
        let relayState = RandomToken.make(byteCount: 16)
        samlLogins[relayState] = requestID
        return relayState
    }

    func finishSAMLLogin(relayState: String) -> String? { samlLogins.removeValue(forKey: relayState) }

    /// A new session for `name`; returns its cookie value.
    func signIn(_ name: String) -> String {
        let cookie = RandomToken.make(byteCount: 24)
        names[cookie] = name
        return cookie
    }

    func name(forCookie cookie: String) -> String? { names[cookie] }
}
