import Foundation
import SSOKitOIDC
import SSOKitTokenCache

extension OIDCHandler {
    /// `login` (and `implicit`): the app's tokens from the cache, else a login with the IdP session, else an
    /// interaction (or `not_interactive` when UI is not allowed).
    func login(answer: TokenAnswerKind) async throws -> AuthorizationResult {
        if let tokens = try await cachedTokens() { return await self.answer(tokens, as: answer) }
        return try await authenticate(interactive: request.isUserInterfaceEnabled, answer: answer)
    }

    /// `refresh`: silent only. The cache or a refresh grant, else a login with the IdP session; else
    /// `not_interactive` / `login_required`, telling the app to call `login`.
    func refresh() async throws -> AuthorizationResult {
        if let tokens = try await cachedTokens() { return await answer(tokens, as: .tokens) }
        return try await authenticate(interactive: false, answer: .tokens)
    }

    /// A new authorization request (PKCE S256, state, nonce) sent through the IdP browser with the IdP session.
    func authenticate(interactive: Bool, answer: TokenAnswerKind) async throws -> AuthorizationResult {
        guard let redirectURI = provider.configuration.redirectURI else {
            throw AuthorizationFailure(
                .failed, .configurationIncomplete, "native logins need the payload's redirect_uri")
        }
        let authorization = try await provider.relyingParty().authorizationRequest(
            redirectURI: redirectURI, scopes: provider.configuration.scopes)
        let state = OIDCLoginState(authorization)
        guard provider.configuration.loginInteraction == .form else {
            guard interactive else { throw AuthorizationFailure.loginRequired() }
            return try await browserInteraction(state, answer: answer)
        }
        var jar = await services.sessions.jar(for: provider.sessionName)
        let outcome = try await services.browser.navigate(
            .get(authorization.url), jar: &jar, origins: try await provider.origins(), stopAt: [redirectURI])
        return try await finish(outcome, jar: jar, state: state, answer: answer, interactive: interactive)
    }

    /// Continues from where the IdP browser stopped: the callback (tokens), a login form (credentials), or any
    /// other page (a browser, when UI is allowed).
    func finish(
        _ outcome: BrowserOutcome, jar: CookieJar, state: OIDCLoginState, answer: TokenAnswerKind, interactive: Bool,
        afterCredentials: Bool = false
    ) async throws -> AuthorizationResult {
        switch outcome {
        case .left(let location) where location.absoluteString.hasPrefix(state.redirectURI):
            let query = URLComponents(url: location, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
            let login: OpenIDLogin
            do {
                login = try await provider.relyingParty().completeLogin(
                    callbackQuery: query, request: try state.request(clientID: provider.configuration.clientID))
            } catch let error as OIDCError
                where [.loginRequired, .interactionRequired].contains(error.code) && !afterCredentials
            {
                guard interactive else { throw AuthorizationFailure.loginRequired() }
                return try await browserInteraction(state, answer: answer)
            }
            await services.sessions.save(jar, for: provider.sessionName)
            return try await completed(login, answer: answer)
        case .loginForm(let form):
            return try await services.askForCredentials(
                form, origins: try await provider.origins(), flow: .oidcLogin(state, answer: answer), jar: jar,
                payload: provider.payload, request: request,
                interactive: interactive, afterCredentials: afterCredentials)
        case .left, .autoPost, .page:
            guard !afterCredentials else {
                throw AuthorizationFailure(.failed, .idpError, "the IdP did not complete the login after the form")
            }
            guard interactive else { throw AuthorizationFailure.loginRequired() }
            return try await browserInteraction(state, answer: answer)
        }
    }

    /// Stores a completed login for the app and answers with its tokens.
    func completed(_ login: OpenIDLogin, answer: TokenAnswerKind) async throws -> AuthorizationResult {
        let tokens = OIDCSession(login: login).cachedTokens(scopes: provider.configuration.scopes)
        try await store(tokens)
        return await self.answer(tokens, as: answer)
    }

    /// Asks the user to open the authorization URL in a browser; resumed with the callback URL.
    func browserInteraction(_ state: OIDCLoginState, answer: TokenAnswerKind) async throws -> AuthorizationResult {
        let url = try state.request(clientID: provider.configuration.clientID).url
        let pending = PendingInteraction(
            payloadIdentifier: provider.payload.identifier, application: request.callerBundleIdentifier,
            flow: .oidcLogin(state, answer: answer), form: nil, cookies: [])
        return try await services.interaction(pending, kind: .browser(url: url))
    }

    /// Resumes a native login with what the user supplied.
    func resumeLogin(
        _ pending: PendingInteraction, state: OIDCLoginState, answer: TokenAnswerKind, response: InteractionResponse
    ) async throws -> AuthorizationResult {
        switch (response, pending.form) {
        case (.credentials, _?):
            let (outcome, jar) = try await services.submit(
                pending, response: response, origins: try await provider.origins(), stopAt: [state.redirectURI])
            return try await finish(
                outcome, jar: jar, state: state, answer: answer, interactive: true, afterCredentials: true)
        case (.callbackURL(let url), nil):
            guard url.absoluteString.hasPrefix(state.redirectURI) else {
                throw AuthorizationFailure(
                    .failed, .invalidInteractionResponse, "the callback URL is not the payload's redirect_uri")
            }
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
            let login = try await provider.relyingParty().completeLogin(
                callbackQuery: query, request: try state.request(clientID: provider.configuration.clientID))
            return try await completed(login, answer: answer)
        default:
            throw AuthorizationFailure(
                .failed, .invalidInteractionResponse, "the answer does not fit the interaction that was asked")
        }
    }
}
