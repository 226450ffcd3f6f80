import SSOKitCore
import SSOKitTokenCache

/// What every handler shares: the environment, the IdP browser and the stores built on the token cache.
final class AdapterServices: Sendable {
    let environment: ExtensionEnvironment
    let browser: IdentityProviderBrowser
    let sessions: IdPSessionStore
    let pending: PendingInteractionStore
    let registry: ApplicationRegistry
    let rights: TokenRightGate

    init(environment: ExtensionEnvironment) {
        self.environment = environment
        let cache = environment.tokenCache
        let limits = environment.limits
        browser = IdentityProviderBrowser(transport: environment.transport, clock: environment.clock, limits: limits)
        sessions = IdPSessionStore(cache: cache, clock: environment.clock, lifetime: limits.idpSessionLifetime)
        pending = PendingInteractionStore(cache: cache, clock: environment.clock, lifetime: limits.interactionLifetime)
        registry = ApplicationRegistry(cache: cache)
        rights = TokenRightGate(store: environment.rightStore, authenticator: environment.rightAuthenticator)
    }

    var cache: TokenCache { environment.tokenCache }
    var clock: any SSOKitClock { environment.clock }
    var limits: ExtensionLimits { environment.limits }

    /// The IdP showed its login form: ask for its fields (keeping the login's state and the IdP's cookies so far),
    /// unless UI is not allowed (`login_required`) or the form comes back after credentials were posted
    /// (`invalid_credentials`). A form that would post outside the IdP's `origins` is refused before anyone is
    /// asked: the credentials could never be sent.
    func askForCredentials(
        _ form: LoginForm, origins: IdPOrigins, flow: PendingInteraction.Flow, jar: CookieJar, payload: SSOPayload,
        request: AuthorizationRequest, interactive: Bool, afterCredentials: Bool
    ) async throws -> AuthorizationResult {
        guard origins.contains(form.action) else {
            throw AuthorizationFailure(.failed, .idpError, "the login form posts outside the IdP")
        }
        if afterCredentials {
            throw AuthorizationFailure(.failed, .invalidCredentials, "the IdP showed its login form again")
        }
        guard interactive else { throw AuthorizationFailure.loginRequired() }
        let pending = PendingInteraction(
            payloadIdentifier: payload.identifier, application: request.callerBundleIdentifier, flow: flow,
            form: form, cookies: jar.cookies)
        return try await interaction(pending, kind: .credentials(fields: form.fields))
    }

    /// Keeps `pending` and asks the host for `kind`.
    func interaction(_ pending: PendingInteraction, kind: Interaction.Kind) async throws -> AuthorizationResult {
        .needsInteraction(try await self.pending.put(pending, kind: kind))
    }

    /// Posts the pending login form with the user's credentials (only to the IdP's own origins) and walks on from
    /// the IdP's answer, with the cookies the login page set.
    func submit(
        _ pending: PendingInteraction, response: InteractionResponse, origins: IdPOrigins, stopAt: [String] = []
    ) async throws -> (BrowserOutcome, CookieJar) {
        guard case .credentials(let credentials) = response, let form = pending.form else {
            throw AuthorizationFailure(
                .failed, .invalidInteractionResponse, "the answer does not fit the interaction that was asked")
        }
        guard origins.contains(form.action) else {
            throw AuthorizationFailure(.failed, .idpError, "the login form posts outside the IdP")
        }
        var jar = CookieJar(cookies: pending.cookies)
        let outcome = try await browser.navigate(
            .postForm(form.action, body: try form.body(credentials: credentials)), jar: &jar, origins: origins,
            stopAt: stopAt)
        return (outcome, jar)
    }
}
