import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitStore
import SSOKitTokenCache

extension OIDCHandler {
    /// `logout`: the app's session ends here first, whatever the provider then says (issue 15's rule), then its
    /// refresh and access tokens are revoked. With the option `end_session` = `true` the IdP session ends too, so
    /// no app logs in silently until the user logs in again.
    func logout() async throws -> AuthorizationResult {
        let ended = try await services.cache.endSession(for: key)
        var result: [String: JSONValue] = [
            "logged_out": .bool(ended.existed), "revoked": .bool(false), "revocation_error": .null,
        ]
        if let tokens = ended.tokens, let party = try? provider.relyingParty() {
            let outcome = await party.revokeSession(
                refreshToken: tokens.refreshToken, accessToken: tokens.accessToken,
                timeout: services.limits.revocationTimeout)
            result["revoked"] = .bool(outcome.revoked)
            result["revocation_error"] = outcome.error.map { .string($0.code.description) } ?? .null
        } else if ended.existed {
            result["revocation_error"] = .string(TokenCacheError.Code.entryUnreadable.description)
        }
        if request.option("end_session") {
            result["idp_session_ended"] = .bool(try await services.sessions.end(provider.sessionName))
        }
        return .httpResponse(TokenAnswer.jsonResponse(result))
    }

    /// `configurationRemoved`: every app's entry for this issuer and client, and the IdP session, are removed.
    func removeConfiguration() async throws -> AuthorizationResult {
        try await ConfigurationRemoval.run(
            services, identity: provider.identity, session: provider.sessionName,
            client: provider.configuration.clientID,
            key: provider.key(for:))
    }

    /// A credential challenge from a matched host: `WWW-Authenticate: Bearer` gets `Authorization: Bearer` with
    /// the app's access token (refreshed when needed, or when the challenge says `error="invalid_token"`); any other
    /// scheme is not handled.
    func challenge() async throws -> AuthorizationResult {
        guard let challenge = BearerChallenge(request.httpHeaders) else { return .doNotHandle }
        let tokens = try await cachedTokens(force: challenge.tokenRejected)
        if let tokens { return await answer(tokens, as: .authorizationHeaders) }
        return try await authenticate(interactive: request.isUserInterfaceEnabled, answer: .authorizationHeaders)
    }
}
