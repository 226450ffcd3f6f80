import Foundation
import SSOKitOIDC
import SSOKitTokenCache

/// A login waiting for the user: everything needed to continue it, kept sealed in the shared store so that any
/// instance can resume it, once.
struct PendingInteraction: Sendable, Codable {
    /// What the interrupted request was doing.
    enum Flow: Sendable, Codable {
        /// A native OIDC login (for `login`, `implicit`, or a Bearer challenge); ends with the app's tokens.
        case oidcLogin(OIDCLoginState, answer: TokenAnswerKind)
        /// A web app's authorization request, sent as it was; ends with a 302 to its redirect URI.
        case oidcIntercept(redirectURI: String?)
        /// A native SAML login; ends with the verified assertion.
        case samlLogin(requestID: String)
        /// A web app's AuthnRequest, sent as it was; ends with a compact auto-post form.
        case samlIntercept(requestID: String?)
    }

    /// The payload whose IdP the login is for.
    var payloadIdentifier: String
    /// The calling app.
    var application: String
    /// The flow.
    var flow: Flow
    /// The login form to fill in; nil for a browser interaction.
    var form: LoginForm?
    /// The IdP's cookies so far (a login page may set its own).
    var cookies: [IdPSessionCookie]
}

/// What an OIDC login answers the app with.
enum TokenAnswerKind: String, Sendable, Codable {
    /// 200 with the tokens as JSON and headers.
    case tokens
    /// `Authorization: Bearer` for a credential challenge.
    case authorizationHeaders
}

/// The secrets of an authorization request in flight (state, nonce, PKCE verifier), to check its callback with.
struct OIDCLoginState: Sendable, Codable {
    var endpoint: URL
    var redirectURI: String
    var scopes: [String]
    var state: String
    var nonce: String
    var codeVerifier: String

    init(_ request: SSOKitOIDC.AuthorizationRequest) {
        endpoint = request.endpoint
        redirectURI = request.redirectURI
        scopes = request.scopes
        state = request.state
        nonce = request.nonce
        codeVerifier = request.pkce.verifier
    }

    /// The request again, for ``OpenIDRelyingParty/completeLogin(callbackQuery:request:)``.
    func request(clientID: String) throws(OIDCError) -> SSOKitOIDC.AuthorizationRequest {
        SSOKitOIDC.AuthorizationRequest(
            endpoint: endpoint, clientID: clientID, redirectURI: redirectURI, scopes: scopes, state: state,
            nonce: nonce, pkce: try PKCE(verifier: codeVerifier))
    }
}
