import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC
import SSOKitSAML
import SSOKitTokenCache

/// Answers one request for a SAML payload: an intercepted AuthnRequest, native `login` / `refresh` / `logout`, or
/// the removal of the configuration.
struct SAMLHandler: Sendable {
    let provider: SAMLProvider
    let services: AdapterServices
    let request: AuthorizationRequest

    var key: TokenCacheKey { provider.key(for: request.callerBundleIdentifier) }

    func handle() async -> AuthorizationResult {
        do {
            switch request.operation {
            case .none: return try await intercept()
            case .login, .implicit:
                if let session = try await cachedSession() { return await answer(session) }
                return try await login(interactive: request.isUserInterfaceEnabled)
            case .refresh:
                if let session = try await cachedSession() { return await answer(session) }
                return try await login(interactive: false)
            case .logout: return try await logout()
            case .configurationRemoved: return try await removeConfiguration()
            default:
                return .failure(
                    AuthorizationFailure(
                        .notHandled, .unsupportedOperation, "the operation \(request.operation) is not supported"))
            }
        } catch {
            return .failure(AuthorizationFailure(error))
        }
    }

    /// The app's SAML session while it lasts.
    private func cachedSession() async throws -> SAMLSessionRecord? {
        guard let tokens = try? await services.cache.tokens(for: key), let session = tokens.samlSession,
            tokens.isValid(until: services.clock.now)
        else { return nil }
        return session
    }

    /// 200 with the session as `saml verify` prints it, once the payload's `token_right` (if any) allows it.
    private func answer(_ session: SAMLSessionRecord) async -> AuthorizationResult {
        if let right = provider.payload.configuration.tokenRight,
            let failure = await services.rights.check(right, request: request)
        {
            return .failure(failure)
        }
        return .httpResponse(TokenAnswer.jsonResponse(session.jsonObject(issuer: provider.identity)))
    }

    // MARK: Intercepted AuthnRequests

    /// A web app's AuthnRequest to the IdP (redirect binding GET, or POST binding form), sent as it is with the IdP
    /// session; the IdP's answer page is reduced to a minimal auto-post form (verified first with
    /// `verify_response`). Other requests under the prefixes are not handled.
    private func intercept() async throws -> AuthorizationResult {
        // Only the IdP's SSO service (when the metadata names it; else the payload's URL prefixes), and only a
        // message that decodes as an AuthnRequest: any other URL would carry the IdP session to a page the web app
        // chose (a forged request with the user's cookies).
        guard let url = request.url else { return .doNotHandle }
        let endpoints = try await provider.metadata()?.singleSignOnServices ?? []
        guard
            endpoints.isEmpty
                || endpoints.contains(where: { endpoint in
                    URL(string: endpoint.location).map { OIDCHandler.sameResource(url, $0) } ?? false
                })
        else { return .doNotHandle }
        let step: BrowserStep
        let requestID: String
        if request.httpMethod == "GET", let query = url.query(percentEncoded: true) {
            guard let message = try? RedirectBinding.decode(query: query, signer: nil),
                message.parameter == .request
            else { return .doNotHandle }
            step = .get(url)
            requestID = message.id
        } else if request.httpMethod == "POST",
            let form = FormURLEncoding.decode(String(decoding: request.httpBody, as: UTF8.self)),
            let message = form.first(where: { $0.0 == "SAMLRequest" })?.1,
            let decoded = try? PostBinding.decode(message)
        {
            // The POST binding's own fields only, as the web app's form would post them.
            let kept = form.filter { ["SAMLRequest", "RelayState", "SigAlg", "Signature"].contains($0.0) }
            step = .postForm(url, body: Array(FormURLEncoding.encode(kept).utf8))
            requestID = decoded.id
        } else {
            return .doNotHandle
        }
        var jar = await services.sessions.jar(for: provider.sessionName)
        let outcome = try await services.browser.navigate(step, jar: &jar, origins: try await provider.origins())
        return try await finishIntercept(outcome, jar: jar, requestID: requestID, afterCredentials: false)
    }

    private func finishIntercept(_ outcome: BrowserOutcome, jar: CookieJar, requestID: String?, afterCredentials: Bool)
        async throws -> AuthorizationResult
    {
        switch outcome {
        case .autoPost(let content) where content.kind == .response:
            if provider.configuration.verifyResponse {
                guard let requestID else {
                    throw AuthorizationFailure(
                        .failed, .invalidRequest, "the intercepted AuthnRequest has no readable ID")
                }
                _ = try await provider.verifier(cache: services.cache, clock: services.clock).verify(
                    postedResponse: content.message, solicitation: .request(id: requestID))
            }
            await services.sessions.save(jar, for: provider.sessionName)
            return .httpResponse(try Self.autoPost(content))
        case .left(let location):
            guard RedirectTarget.isWebLocation(location) else {
                throw AuthorizationFailure(.invalidResponse, .idpError, "the IdP redirected to a non-web URL")
            }
            await services.sessions.save(jar, for: provider.sessionName)
            return .httpResponse(TokenAnswer.redirect(location))
        case .loginForm(let form):
            return try await services.askForCredentials(
                form, origins: try await provider.origins(), flow: .samlIntercept(requestID: requestID), jar: jar,
                payload: provider.payload, request: request,
                interactive: request.isUserInterfaceEnabled, afterCredentials: afterCredentials)
        case .autoPost, .page:
            throw AuthorizationFailure(.failed, .idpError, "the IdP did not answer with a SAML Response")
        }
    }

    /// The minimal auto-post page for `content`, with a fresh script nonce and its Content-Security-Policy.
    static func autoPost(_ content: AutoPostFormContent) throws -> CompactHTTPResponse {
        let form = try content.compactForm(scriptNonce: RandomToken.make(byteCount: 16))
        var fields = HTTPFields()
        fields[.contentType] = "text/html; charset=utf-8"
        fields[.cacheControl] = "no-store"
        if let policy = form.contentSecurityPolicy { fields[.contentSecurityPolicy] = policy }
        return CompactHTTPResponse(
            status: 200, headerFields: fields, body: Array(form.html.utf8),
            exemptBytes: content.kind == .response ? content.message.utf8.count : 0)
    }

    // MARK: Native login

    /// A native `login`: an AuthnRequest of this SP (signed with `sp_key_file`) through the IdP browser; the
    /// Response is verified (solicited by the request's ID, replays refused) and kept as the app's session.
    private func login(interactive: Bool) async throws -> AuthorizationResult {
        guard let metadata = try await provider.metadata() else {
            throw AuthorizationFailure(
                .failed, .configurationIncomplete, "a native SAML login needs the IdP metadata (its SSO URL)")
        }
        let builder = try provider.configuration.authnRequestBuilder(clock: services.clock)
        let signingKey = provider.configuration.serviceProviderKey
        let step: BrowserStep
        let requestID: String
        if let destination = metadata.singleSignOnURL(binding: AuthnRequest.Binding.redirect) {
            let authn = try builder.build(destination: destination)
            let url = try RedirectBinding.url(destination: destination, xml: authn.xml, signingKey: signingKey)
            guard let parsed = URL(string: url) else {
                throw AuthorizationFailure(.failed, .configurationIncomplete, "the IdP's SSO URL is not usable")
            }
            (step, requestID) = (.get(parsed), authn.id)
        } else if let destination = metadata.singleSignOnURL(binding: AuthnRequest.Binding.post),
            let target = URL(string: destination)
        {
            let authn = try builder.build(destination: destination)
            let message = try PostBinding.encode(authn, signingKey: signingKey)
            let body = Array(FormURLEncoding.encode([("SAMLRequest", message)]).utf8)
            (step, requestID) = (.postForm(target, body: body), authn.id)
        } else {
            throw AuthorizationFailure(.failed, .configurationIncomplete, "the IdP metadata lists no usable SSO URL")
        }
        var jar = await services.sessions.jar(for: provider.sessionName)
        let outcome = try await services.browser.navigate(step, jar: &jar, origins: try await provider.origins())
        return try await finishLogin(
            outcome, jar: jar, requestID: requestID, interactive: interactive, afterCredentials: false)
    }

    private func finishLogin(
        _ outcome: BrowserOutcome, jar: CookieJar, requestID: String, interactive: Bool, afterCredentials: Bool
    ) async throws -> AuthorizationResult {
        switch outcome {
        case .autoPost(let content) where content.kind == .response:
            let assertion = try await provider.verifier(cache: services.cache, clock: services.clock).verify(
                postedResponse: content.message, solicitation: .request(id: requestID))
            await services.sessions.save(jar, for: provider.sessionName)
            try await services.cache.store(CachedTokens(samlSession: assertion.sessionRecord), for: key)
            await services.registry.register(
                request.callerBundleIdentifier, identity: provider.identity,
                client: provider.configuration.serviceProviderEntityID)
            if let right = provider.payload.configuration.tokenRight,
                let failure = await services.rights.check(right, request: request)
            {
                return .failure(failure)
            }
            return .httpResponse(TokenAnswer.jsonResponse(assertion.jsonObject))
        case .loginForm(let form):
            return try await services.askForCredentials(
                form, origins: try await provider.origins(), flow: .samlLogin(requestID: requestID), jar: jar,
                payload: provider.payload, request: request,
                interactive: interactive, afterCredentials: afterCredentials)
        case .left, .autoPost, .page:
            guard interactive || afterCredentials else { throw AuthorizationFailure.loginRequired() }
            throw AuthorizationFailure(.failed, .idpError, "the IdP did not answer with a SAML Response")
        }
    }

    /// Resumes a SAML login or intercepted request after the login form.
    func resume(_ pending: PendingInteraction, response: InteractionResponse) async throws -> AuthorizationResult {
        let (outcome, jar) = try await services.submit(
            pending, response: response, origins: try await provider.origins())
        switch pending.flow {
        case .samlLogin(let requestID):
            return try await finishLogin(
                outcome, jar: jar, requestID: requestID, interactive: true, afterCredentials: true)
        case .samlIntercept(let requestID):
            return try await finishIntercept(outcome, jar: jar, requestID: requestID, afterCredentials: true)
        default:
            throw AuthorizationFailure(.failed, .invalidInteractionResponse, "the interaction is not a SAML login")
        }
    }

    // MARK: Sessions

    /// `logout`: the app's SAML session is removed (and the IdP session with the option `end_session`).
    private func logout() async throws -> AuthorizationResult {
        let ended = try await services.cache.endSession(for: key)
        var result: [String: JSONValue] = ["logged_out": .bool(ended.existed)]
        if request.option("end_session") {
            result["idp_session_ended"] = .bool(try await services.sessions.end(provider.sessionName))
        }
        return .httpResponse(TokenAnswer.jsonResponse(result))
    }

    /// `configurationRemoved`: every app's session with this IdP and SP, and the IdP session, are removed.
    private func removeConfiguration() async throws -> AuthorizationResult {
        try await ConfigurationRemoval.run(
            services, identity: provider.identity, session: provider.sessionName,
            client: provider.configuration.serviceProviderEntityID,
            key: provider.key(for:))
    }
}
