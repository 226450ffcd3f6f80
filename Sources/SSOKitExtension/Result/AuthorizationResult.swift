import HTTPTypes

/// The one answer to an ``AuthorizationRequest``, as an extension completes `ASAuthorizationProviderExtension...`
/// requests.
public enum AuthorizationResult: Sendable, Hashable {
    /// An HTTP response for the caller: a compact 302, a tiny auto-post form, or tokens for a native app.
    case httpResponse(CompactHTTPResponse)
    /// Headers that complete a credential challenge (`Authorization: Bearer ...`).
    case authorizationHeaders(HTTPFields)
    /// Not for this extension: the caller proceeds without it.
    case doNotHandle
    /// The user must act; resume with ``RedirectExtension/resume(interaction:with:)``.
    case needsInteraction(Interaction)
    /// The request failed.
    case failure(AuthorizationFailure)

    /// `http_response`, `authorization_headers`, `do_not_handle`, `needs_interaction` or `failure`.
    public var kind: String {
        switch self {
        case .httpResponse: "http_response"
        case .authorizationHeaders: "authorization_headers"
        case .doNotHandle: "do_not_handle"
        case .needsInteraction: "needs_interaction"
        case .failure: "failure"
        }
    }

    /// The failure, when this is one.
    public var failure: AuthorizationFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
