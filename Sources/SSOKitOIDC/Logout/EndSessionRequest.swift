import Foundation

/// An RP-Initiated Logout request (OpenID Connect RP-Initiated Logout 1.0 §2): the URL that sends the browser to
/// the provider's `end_session_endpoint` so that the provider ends its own session with the user.
public struct EndSessionRequest: Sendable {
    /// The provider's `end_session_endpoint`.
    public var endpoint: URL
    /// `id_token_hint`: the ID token of the session (RECOMMENDED, §2).
    public var idTokenHint: String?
    /// `client_id`.
    public var clientID: String?
    /// `post_logout_redirect_uri`: where the provider sends the browser afterwards; it must be registered.
    public var postLogoutRedirectURI: String?
    /// `state`, returned on that redirect.
    public var state: String?

    /// Creates a request; every parameter but the endpoint is optional.
    public init(
        endpoint: URL, idTokenHint: String? = nil, clientID: String? = nil, postLogoutRedirectURI: String? = nil,
        state: String? = nil
    ) {
        self.endpoint = endpoint
        self.idTokenHint = idTokenHint
        self.clientID = clientID
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.state = state
    }

    /// The query parameters that are set, in a stable order.
    public var parameters: [(String, String)] {
        let pairs: [(String, String?)] = [
            ("id_token_hint", idTokenHint), ("client_id", clientID),
            ("post_logout_redirect_uri", postLogoutRedirectURI), ("state", state),
        ]
        return pairs.compactMap { name, value in value.map { (name, $0) } }
    }

    /// The URL to send the browser to: the endpoint with the parameters appended to any query it already has.
    /// It holds the ID token: hand it to the browser, do not log it.
    public var url: URL {
        endpoint.appendingQuery(parameters)
    }
}
