import Foundation
import SSOKitCore

/// An authorization-code request with PKCE (OIDC Core §3.1.2.1), and the secrets the callback must be checked
/// against. Keep the whole value server-side (or in the process) until the callback arrives.
public struct AuthorizationRequest: Sendable {
    /// The provider's `authorization_endpoint`.
    public var endpoint: URL
    /// `client_id`.
    public var clientID: String
    /// `redirect_uri`.
    public var redirectURI: String
    /// `scope` values; `openid` is always sent.
    public var scopes: [String]
    /// `state`, random by default.
    public var state: String
    /// `nonce`, random by default.
    public var nonce: String
    /// The PKCE pair; S256 by default.
    public var pkce: PKCE
    /// `prompt` values (`none`, `login`, `consent`, `select_account`).
    public var prompt: [String]
    /// `login_hint`.
    public var loginHint: String?
    /// `max_age` in seconds.
    public var maxAge: Int64?
    /// `acr_values`.
    public var acrValues: [String]
    /// Further parameters, appended in order; they cannot override the ones above.
    public var extraParameters: [(String, String)]

    /// Creates a request with fresh `state`, `nonce` and PKCE verifier.
    public init(
        endpoint: URL, clientID: String, redirectURI: String, scopes: [String] = ["openid"],
        state: String = RandomToken.make(), nonce: String = RandomToken.make(), pkce: PKCE = PKCE(),
        prompt: [String] = [], loginHint: String? = nil, maxAge: Int64? = nil, acrValues: [String] = [],
        extraParameters: [(String, String)] = []
    ) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.prompt = prompt
        self.loginHint = loginHint
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.extraParameters = extraParameters
    }

    /// The query parameters, in a stable order.
    public var parameters: [(String, String)] {
        var scopeList = scopes
        if !scopeList.contains("openid") { scopeList.insert("openid", at: 0) }
        var pairs: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", scopeList.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method.name),
        ]
        if !prompt.isEmpty { pairs.append(("prompt", prompt.joined(separator: " "))) }
        if let loginHint { pairs.append(("login_hint", loginHint)) }
        if let maxAge { pairs.append(("max_age", String(maxAge))) }
        if !acrValues.isEmpty { pairs.append(("acr_values", acrValues.joined(separator: " "))) }
        let reserved = Set(pairs.map(\.0))
        pairs += extraParameters.filter { !reserved.contains($0.0) }
        return pairs
    }

    /// The URL to send the browser to: the endpoint with the parameters appended to any query it already has.
    public var url: URL {
        endpoint.appendingQuery(parameters)
    }

    /// The expectations the ID token from this request must meet.
    public var idTokenExpectations: IDTokenExpectations {
        IDTokenExpectations(nonce: nonce, maxAge: maxAge)
    }
}
