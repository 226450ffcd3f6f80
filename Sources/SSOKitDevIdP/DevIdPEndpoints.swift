import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC

/// The stores every endpoint shares, created with the provider.
struct DevIdPStores: Sendable {
    let sessions = SessionStore()
    let interactions = InteractionStore()
    let codes = AuthorizationCodeStore()
    let grants = GrantStore()
    let oneTimeValues = OneTimeValues()
    let throttle = LoginThrottle()
}

/// The IdP's endpoints, once its URL is known: each facet (`DevIdPEndpoints+Token.swift`, …) answers one kind of
/// request. Endpoints never throw: every refusal becomes the response its protocol prescribes.
struct DevIdPEndpoints: Sendable {
    let site: SiteURLs
    let configuration: DevIdPConfiguration
    let users: [String: DevIdPUser]
    let clients: [String: OIDCClientRegistration]
    let serviceProviders: [String: SAMLServiceProviderRegistration]
    let idTokens: IDTokenSigner
    let stores: DevIdPStores

    var now: Date { configuration.clock.now }
    var lifetimes: DevIdPLifetimes { configuration.lifetimes }

    /// An error page (the requester could not be trusted with a redirect).
    func errorPage(_ error: DevIdPError) -> EndpointResponse {
        let status: HTTPResponse.Status
        switch error.code {
        case .signatureRequired, .invalidSignature: status = .forbidden
        case .tooManyAttempts: status = .tooManyRequests
        case .serverError: status = .internalServerError
        case .notFound: status = .notFound
        default: status = .badRequest
        }
        return .html(IdPPages.error(error), status: status)
    }

    /// Files `interaction` and shows its login form.
    func beginLogin(_ interaction: PendingInteraction, audience: String) async -> EndpointResponse {
        guard let handle = await stores.interactions.begin(interaction, now: now, lifetime: lifetimes.pendingLogin)
        else { return errorPage(DevIdPError(.serverError, "too many logins are pending; try again later")) }
        return loginPage(handle: handle, audience: audience)
    }

    /// The login form of the pending login `handle`, which is also set as the browser's interaction cookie.
    func loginPage(
        handle: String, audience: String, username: String? = nil, message: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> EndpointResponse {
        var response = EndpointResponse.html(
            IdPPages.login(handle: handle, audience: audience, username: username, message: message), status: status)
        response.setCookie(IdPCookies.set(IdPCookies.interaction, value: handle, maxAge: Int(lifetimes.pendingLogin)))
        return response
    }
}
