/// Maps an OAuth 2.0 `error` value (RFC 6749 §4.1.2.1 and §5.2, OIDC Core §3.1.2.6, RFC 8628 §3.5, RFC 7009
/// §2.2.1) to a typed error. The provider's `error_description` is kept only if it is short printable ASCII; it
/// never holds secrets of ours, but it is the provider's text, so it is quoted as such.
enum OAuthErrorMapping {
    private static let known: [String: OIDCError.Code] = [
        "access_denied": .accessDenied, "login_required": .loginRequired,
        "interaction_required": .interactionRequired, "consent_required": .consentRequired,
        "account_selection_required": .interactionRequired, "invalid_request": .invalidRequest,
        "invalid_client": .invalidClient, "invalid_grant": .invalidGrant, "unauthorized_client": .unauthorizedClient,
        "unsupported_grant_type": .unsupportedGrantType, "invalid_scope": .invalidScope, "server_error": .serverError,
        "temporarily_unavailable": .temporarilyUnavailable, "expired_token": .expiredToken,
        "authorization_pending": .authorizationPending, "slow_down": .slowDown,
        "unsupported_token_type": .unsupportedTokenType,
    ]

    static func error(code: String, description: String?) -> OIDCError {
        let mapped = known[code] ?? .providerError
        var reason = "the provider answered \(sanitized(code) ?? "an error")"
        if let text = description.flatMap(sanitized) { reason += ": \"\(text)\"" }
        return OIDCError(mapped, reason)
    }

    private static func sanitized(_ text: String) -> String? {
        let printable = text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        guard !printable.isEmpty else { return nil }
        return String(String.UnicodeScalarView(printable.prefix(200)))
    }
}
