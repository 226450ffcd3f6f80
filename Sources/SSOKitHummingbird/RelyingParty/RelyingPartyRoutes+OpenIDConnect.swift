import Foundation
import Hummingbird
import Logging
import SSOKitCore
import SSOKitOIDC

extension RelyingPartyRoutes {
    /// GET sign-in: a fresh authorization request (state, nonce, S256 PKCE) kept for this browser, and a redirect
    /// to the OpenID Provider.
    func openIDConnectSignIn(_ request: Request, logger: Logger) async -> Response {
        await answer(logger) { () async throws(RelyingPartyError) -> Response in
            guard let openIDConnect = configuration.openIDConnect else { throw .notConfigured("OpenID Connect") }
            let browser = loginCookie(of: request)
            let authorization: AuthorizationRequest
            do throws(OIDCError) {
                authorization = try await openIDConnect.relyingParty.authorizationRequest(
                    redirectURI: configuration.baseURL + configuration.paths.openIDConnectCallback,
                    scopes: openIDConnect.scopes)
            } catch {
                throw .unavailable(error)
            }
            var state = loginState(
                browserCookie: browser, returnPath: ReturnPath.validated(request.uri.queryParameters.get("return_to")))
            state.openIDConnect = LoginState.OpenIDConnect(
                authorizationEndpoint: authorization.endpoint, redirectURI: authorization.redirectURI,
                scopes: authorization.scopes, state: authorization.state, nonce: authorization.nonce,
                codeVerifier: authorization.pkce.verifier, maxAge: authorization.maxAge)
            try await logins.begin(state, key: authorization.state)
            return RelyingPartyPages.redirect(
                to: authorization.url.absoluteString,
                cookies: [cookies.login(browser, maxAge: configuration.loginLifetime)])
        }
    }

    /// GET callback: the sign-in its `state` names, taken once and only by its browser; then the callback's checks,
    /// the code exchange with the PKCE verifier, the ID token's verification (nonce, `at_hash`, `c_hash`), a new
    /// session, and a redirect to where the sign-in began.
    func openIDConnectCallback(_ request: Request, logger: Logger) async -> Response {
        await answer(logger) { () async throws(RelyingPartyError) -> Response in
            guard let openIDConnect = configuration.openIDConnect else { throw .notConfigured("OpenID Connect") }
            let query = request.uri.query ?? ""
            guard query.utf8.count <= Self.maximumCallbackQueryBytes else { throw .tooLarge }
            let state = try await logins.take(
                key: request.uri.queryParameters.get("state") ?? "",
                browserCookie: RelyingPartyCookies.value(named: cookies.loginName, in: request))
            guard let saved = state.openIDConnect, let pkce = try? PKCE(verifier: saved.codeVerifier) else {
                throw .stateUnknown
            }
            let authorization = AuthorizationRequest(
                endpoint: saved.authorizationEndpoint, clientID: openIDConnect.relyingParty.clientID,
                redirectURI: saved.redirectURI, scopes: saved.scopes, state: saved.state, nonce: saved.nonce,
                pkce: pkce, maxAge: saved.maxAge)
            let login: OpenIDLogin
            do throws(OIDCError) {
                login = try await openIDConnect.relyingParty.completeLogin(
                    callbackQuery: query, request: authorization)
            } catch {
                throw .refusal(error)
            }
            let claims = login.claims
            let all = claims.all
            let user = SignedInUser(
                signInProtocol: .openIDConnect, issuer: claims.issuer, subject: claims.subject,
                displayName: all["name"]?.stringValue ?? all["preferred_username"]?.stringValue ?? claims.subject,
                email: all["email"]?.stringValue, signedInAt: clock.now)
            let session = try await sessions.start(user, replacing: request)
            return RelyingPartyPages.redirect(to: state.returnPath, cookies: [session])
        }
    }
}

extension RelyingPartyError {
    /// The OpenID Provider could not be reached for discovery.
    static func unavailable(_ error: OIDCError) -> RelyingPartyError {
        RelyingPartyError(
            .identityProviderUnavailable, status: .badGateway, "the OpenID Provider could not be reached",
            reason: error.code.description)
    }

    /// A failed callback: the provider's own refusal, an unreachable provider, or a failed check.
    static func refusal(_ error: OIDCError) -> RelyingPartyError {
        let reason = error.code.description
        switch error.code {
        case .accessDenied, .loginRequired, .interactionRequired, .consentRequired, .providerError, .serverError,
            .temporarilyUnavailable:
            return RelyingPartyError(
                .identityProviderRefused, status: .forbidden, "the OpenID Provider did not sign you in",
                reason: reason)
        case .transportFailed, .discoveryFailed, .invalidDiscoveryDocument, .jwksFetchFailed, .timedOut:
            return .unavailable(error)
        default:
            return RelyingPartyError(
                .callbackRejected, status: .forbidden, "the OpenID Provider's answer failed a check", reason: reason)
        }
    }
}
