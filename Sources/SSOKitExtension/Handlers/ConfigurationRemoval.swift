import SSOKitCore
import SSOKitOIDC
import SSOKitTokenCache

/// `configurationRemoved` for any payload: every app's entry with the payload's IdP and client (as the registry
/// lists them) and the IdP session are removed; the answer says how many entries went.
enum ConfigurationRemoval {
    static func run(
        _ services: AdapterServices, identity: String, session: String, client: String,
        key: (String) -> TokenCacheKey
    ) async throws -> AuthorizationResult {
        let applications = try await services.registry.take(identity: identity, client: client)
        var removed = 0
        for application in applications where try await services.cache.endSession(for: key(application)).existed {
            removed += 1
        }
        let sessionEnded = try await services.sessions.end(session)
        return .httpResponse(
            TokenAnswer.jsonResponse([
                "removed_entries": .integer(Int64(removed)), "idp_session_ended": .bool(sessionEnded),
            ]))
    }
}
