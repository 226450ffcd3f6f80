import Foundation

extension OpenIDRelyingParty {
    /// Revokes a session's tokens at the provider (RFC 7009 §2.1), authenticating as this relying party's client:
    /// the refresh token first (`token_type_hint=refresh_token`; revoking it also ends the access tokens issued
    /// with it at most providers), then the access token (`token_type_hint=access_token`).
    ///
    /// Never throws: a logout has already ended the local session (see `TokenCache.endSession(for:)`), and this
    /// only reports whether the provider ended its copy too. It stops at the first failure; a provider that cannot
    /// revoke access tokens (`unsupported_token_type`) after revoking the refresh token still counts as revoked.
    /// Discovery and every request together get at most `timeout`; then the outcome is `timed_out`.
    public func revokeSession(refreshToken: String?, accessToken: String?, timeout: Duration = .seconds(10)) async
        -> RevocationOutcome
    {
        guard refreshToken != nil || accessToken != nil else {
            return RevocationOutcome(revoked: false, error: OIDCError(.invalidRequest, "there is no token to revoke"))
        }
        do {
            try await Deadline.run(timeout) { () async throws(OIDCError) in
                try await self.revokeInOrder(refreshToken: refreshToken, accessToken: accessToken)
            }
            return RevocationOutcome(revoked: true, error: nil)
        } catch {
            return RevocationOutcome(revoked: false, error: error)
        }
    }

    /// Revokes the refresh token, then the access token; throws the first failure.
    func revokeInOrder(refreshToken: String?, accessToken: String?) async throws(OIDCError) {
        let client = try await tokenClient()
        if let refreshToken { try await client.revoke(refreshToken, typeHint: "refresh_token") }
        guard let accessToken else { return }
        do {
            try await client.revoke(accessToken, typeHint: "access_token")
        } catch let error where error.code == .unsupportedTokenType && refreshToken != nil {
            // RFC 7009 §2.2.1: this provider revokes no access tokens; they end with the refresh token or expire.
        }
    }

    /// The RP-Initiated Logout request (RP-Initiated Logout 1.0 §2) for the provider's `end_session_endpoint`,
    /// with this client's ID; `unsupported_feature` when discovery advertises no such endpoint.
    public func endSessionRequest(
        idTokenHint: String?, postLogoutRedirectURI: String? = nil, state: String? = nil
    ) async throws(OIDCError) -> EndSessionRequest {
        guard let endpoint = try await metadata().endSessionEndpoint else {
            throw OIDCError(.unsupportedFeature, "the provider has no end_session_endpoint")
        }
        return EndSessionRequest(
            endpoint: endpoint, idTokenHint: idTokenHint, clientID: clientID,
            postLogoutRedirectURI: postLogoutRedirectURI, state: state)
    }
}
