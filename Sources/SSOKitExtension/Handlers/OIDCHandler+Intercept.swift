import Foundation
import SSOKitOIDC

extension OIDCHandler {
    /// A web app's GET of the authorization endpoint, intercepted: sent as it is (the app's own state, nonce and
    /// PKCE challenge untouched) with the IdP session, and answered with a compact 302 to where the IdP sends the
    /// browser (the app's redirect URI with code, state and iss). A login form becomes a credentials interaction.
    /// Any other URL under the payload's prefixes is not handled.
    func intercept() async throws -> AuthorizationResult {
        guard request.httpMethod == "GET", let url = request.url else { return .doNotHandle }
        let metadata = try await provider.relyingParty().metadata()
        guard Self.sameResource(url, metadata.authorizationEndpoint) else { return .doNotHandle }
        guard
            let redirectURI = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                .first(where: { $0.name == "redirect_uri" })?.value,
            RedirectTarget.isAcceptableRedirectURI(redirectURI)
        else {
            throw AuthorizationFailure(
                .failed, .invalidRequest, "the authorization request names no usable redirect_uri")
        }
        var jar = await services.sessions.jar(for: provider.sessionName)
        let outcome = try await services.browser.navigate(
            .get(url), jar: &jar, origins: try await provider.origins(), stopAt: [redirectURI])
        return try await finishIntercept(
            outcome, jar: jar, redirectURI: redirectURI, interactive: request.isUserInterfaceEnabled,
            afterCredentials: false)
    }

    func finishIntercept(
        _ outcome: BrowserOutcome, jar: CookieJar, redirectURI: String?, interactive: Bool, afterCredentials: Bool
    ) async throws -> AuthorizationResult {
        switch outcome {
        case .left(let location):
            // The code goes only where the web app asked for it: its own redirect URI, nowhere else.
            guard let redirectURI, RedirectTarget.location(location.absoluteString, isUnder: redirectURI) else {
                throw AuthorizationFailure(
                    .invalidResponse, .idpError, "the IdP sent the browser somewhere other than the redirect_uri")
            }
            await services.sessions.save(jar, for: provider.sessionName)
            return .httpResponse(TokenAnswer.redirect(location))
        case .loginForm(let form):
            return try await services.askForCredentials(
                form, origins: try await provider.origins(), flow: .oidcIntercept(redirectURI: redirectURI), jar: jar,
                payload: provider.payload,
                request: request,
                interactive: interactive, afterCredentials: afterCredentials)
        case .autoPost, .page:
            throw AuthorizationFailure(
                .failed, .idpError, "the IdP answered the authorization request with a page that cannot be completed")
        }
    }

    /// Resumes an intercepted authorization request after the login form.
    func resumeIntercept(_ pending: PendingInteraction, redirectURI: String?, response: InteractionResponse)
        async throws -> AuthorizationResult
    {
        let (outcome, jar) = try await services.submit(
            pending, response: response, origins: try await provider.origins(), stopAt: redirectURI.map { [$0] } ?? [])
        return try await finishIntercept(
            outcome, jar: jar, redirectURI: redirectURI, interactive: true, afterCredentials: true)
    }

    /// Whether two URLs name the same endpoint: scheme, host, port and path (the query aside).
    static func sameResource(_ url: URL, _ endpoint: URL) -> Bool {
        guard let left = IdPOrigins.origin(url), let right = IdPOrigins.origin(endpoint) else { return false }
        let leftPath = url.path(percentEncoded: true)
        let rightPath = endpoint.path(percentEncoded: true)
        return left == right && (leftPath.isEmpty ? "/" : leftPath) == (rightPath.isEmpty ? "/" : rightPath)
    }
}
