import Foundation

extension RedirectExtension {
    /// The decision pipeline, cheapest step first: the caller's identifier, the payload, the caller policy, the
    /// screen lock, then the payload's handler.
    func decide(_ request: AuthorizationRequest) async -> AuthorizationResult {
        guard BundleIdentifier.isValid(request.callerBundleIdentifier) else {
            return .failure(
                AuthorizationFailure(.failed, .invalidRequest, "the caller's identifier is not a bundle identifier"))
        }
        guard let payload = payload(for: request) else { return .doNotHandle }
        guard payload.permits(application: request.callerBundleIdentifier) else { return .doNotHandle }
        // A web request to a Redirect URL (no operation) is browser SSO: browsers and allow-listed apps only.
        if request.operation == .none, payload.type == .redirect,
            !payload.permitsBrowserSSO(application: request.callerBundleIdentifier)
        {
            return .doNotHandle
        }
        if request.isScreenLocked {
            switch payload.screenLockedBehavior {
            case .cancel:
                return .failure(AuthorizationFailure(.canceled, .screenLocked, "the screen is locked"))
            case .doNotHandle:
                return .doNotHandle
            }
        }
        var request = request
        request.extensionData = payload.extensionData
        return await route(request, to: payload)
    }

    /// Step 1: the payload for the request. A URL that a Redirect prefix or a Credential host matches; else, for an
    /// operation, the payload whose IdP the URL names; without a URL, the Credential payload of the realm, or the
    /// only payload there is.
    func payload(for request: AuthorizationRequest) -> SSOPayload? {
        if let url = request.url {
            if let match = catalog.match(url) {
                if match.type == .credential, let realm = request.realm, let expected = match.payload.realm,
                    realm.caseInsensitiveCompare(expected) != .orderedSame
                {
                    return nil
                }
                return match.payload
            }
            return request.operation == .none ? nil : identityProviderPayload(url)
        }
        guard request.operation != .none else { return nil }
        if let realm = request.realm {
            return catalog.payloads.first { $0.realm?.caseInsensitiveCompare(realm) == .orderedSame }
        }
        return catalog.payloads.count == 1 ? catalog.payloads.first : nil
    }

    /// Step 4: the handler of the payload's protocol.
    func route(_ request: AuthorizationRequest, to payload: SSOPayload) async -> AuthorizationResult {
        if let provider = oidcByPayload[ObjectIdentifier(payload)] {
            return await OIDCHandler(provider: provider, services: services, request: request).handle()
        }
        if let provider = samlByPayload[ObjectIdentifier(payload)] {
            return await SAMLHandler(provider: provider, services: services, request: request).handle()
        }
        return .doNotHandle
    }

    /// Resumes a pending interaction with the handler of its payload.
    func continueInteraction(_ id: String, _ response: InteractionResponse) async -> AuthorizationResult {
        let pending: PendingInteraction?
        do {
            pending = try await services.pending.take(id)
        } catch {
            return .failure(AuthorizationFailure(error))
        }
        guard let pending else {
            return .failure(
                AuthorizationFailure(
                    .failed, .interactionExpired, "the interaction is unknown, already resumed, or expired"))
        }
        if case .cancel = response {
            return .failure(AuthorizationFailure(.canceled, .userCanceled, "the user cancelled the login"))
        }
        guard let payload = catalog.payload(identifier: pending.payloadIdentifier),
            payload.permits(application: pending.application)
        else {
            return .failure(
                AuthorizationFailure(.failed, .appNotPermitted, "the payload no longer serves the calling app"))
        }
        let request = AuthorizationRequest(
            url: nil, callerBundleIdentifier: pending.application, isUserInterfaceEnabled: true)
        do {
            switch pending.flow {
            case .oidcLogin(let state, let answer):
                guard let provider = oidcProviders[payload.identifier] else { return .doNotHandle }
                return try await OIDCHandler(provider: provider, services: services, request: request).resumeLogin(
                    pending, state: state, answer: answer, response: response)
            case .oidcIntercept(let redirectURI):
                guard let provider = oidcProviders[payload.identifier] else { return .doNotHandle }
                return try await OIDCHandler(provider: provider, services: services, request: request)
                    .resumeIntercept(pending, redirectURI: redirectURI, response: response)
            case .samlLogin, .samlIntercept:
                guard let provider = samlProviders[payload.identifier] else { return .doNotHandle }
                return try await SAMLHandler(provider: provider, services: services, request: request).resume(
                    pending, response: response)
            }
        } catch {
            return .failure(AuthorizationFailure(error))
        }
    }
}
