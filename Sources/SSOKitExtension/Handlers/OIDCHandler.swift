import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitStore
import SSOKitTokenCache

/// Answers one request for an OIDC payload: native operations, an intercepted authorization request, a Bearer
/// challenge, or the removal of the configuration.
struct OIDCHandler: Sendable {
    let provider: OIDCProvider
    let services: AdapterServices
    let request: AuthorizationRequest

    /// The app's entry.
    var key: TokenCacheKey { provider.key(for: request.callerBundleIdentifier) }

    func handle() async -> AuthorizationResult {
        do {
            switch request.operation {
            case .login, .implicit: return try await login(answer: .tokens)
            case .refresh: return try await refresh()
            case .logout: return try await logout()
            case .configurationRemoved: return try await removeConfiguration()
            case .none:
                return provider.payload.type == .credential ? try await challenge() : try await intercept()
            default:
                return .failure(
                    AuthorizationFailure(
                        .notHandled, .unsupportedOperation, "the operation \(request.operation) is not supported"))
            }
        } catch {
            return .failure(AuthorizationFailure(error))
        }
    }

    /// Hands `tokens` to the app, once the payload's `token_right` (if any) allows it.
    func answer(_ tokens: CachedTokens, as kind: TokenAnswerKind) async -> AuthorizationResult {
        if let right = provider.payload.configuration.tokenRight,
            let failure = await services.rights.check(right, request: request)
        {
            return .failure(failure)
        }
        do {
            let prepared = try provider.answers.answer(for: tokens, application: request.callerBundleIdentifier)
            switch kind {
            case .tokens:
                let expiresIn = TokenAnswer.expiresIn(tokens.accessTokenExpiresAt, now: services.clock.now)
                return .httpResponse(prepared.response(expiresIn: expiresIn))
            case .authorizationHeaders: return .authorizationHeaders(prepared.authorization)
            }
        } catch {
            return .failure(error)
        }
    }

    /// The app's tokens, valid beyond the cache's leeway (refreshed single-flight when needed, or whatever the
    /// expiry when `force`); nil when only a new login can give some.
    func cachedTokens(force: Bool = false) async throws -> CachedTokens? {
        guard let refresh = provider.refresh else {
            _ = try provider.relyingParty()
            return nil
        }
        do {
            return force
                ? try await services.cache.refreshedTokens(for: key, refresh: refresh)
                : try await services.cache.validTokens(for: key, refresh: refresh)
        } catch let error as TokenCacheError
            where [.notFound, .notRefreshable, .entryUnreadable].contains(error.code)
        {
            return nil
        } catch let error as OIDCError where Self.meansLoginAgain(error) {
            return nil
        }
    }

    /// Stores a login's tokens for the app (durably, before the answer) and lists the app for
    /// `configurationRemoved`.
    func store(_ tokens: CachedTokens) async throws {
        try await services.cache.store(tokens, for: key)
        await services.registry.register(
            request.callerBundleIdentifier, identity: provider.identity, client: provider.configuration.clientID)
    }

    /// Refresh failures that only a new login repairs.
    static func meansLoginAgain(_ error: OIDCError) -> Bool {
        [.invalidGrant, .loginRequired, .interactionRequired, .consentRequired, .refreshClaimsMismatch].contains(
            error.code)
    }
}
