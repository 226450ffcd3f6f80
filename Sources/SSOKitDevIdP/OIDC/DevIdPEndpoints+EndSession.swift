import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC

extension DevIdPEndpoints {
    /// `GET|POST /logout`: RP-Initiated Logout 1.0 §2. A valid `id_token_hint` for the browser's own session logs
    /// out at once; otherwise the user confirms on a page first (§2: the OP should ask). The browser then goes to the
    /// `post_logout_redirect_uri` with `state`, when one registered for the client was given (§3), or sees a page.
    func endSession(_ request: EndpointRequest) async -> EndpointResponse {
        let parameters: Parameters
        let hint: IDTokenClaims?
        do {
            parameters = try request.parameters()
            hint = try await parameters["id_token_hint"].asyncMap(verifiedHint)
        } catch {
            return errorPage(error)
        }
        let clientID = parameters["client_id"] ?? hint?.audience.first
        if let hint, let clientID, !hint.audience.contains(clientID) {
            return errorPage(DevIdPError(.invalidRequest, "client_id is not the audience of the id_token_hint"))
        }
        let client = clientID.flatMap { clients[$0] }
        if clientID != nil, client == nil {
            return errorPage(DevIdPError(.unknownClient, "the client_id names no registered client"))
        }
        var destination: String?
        if let uri = parameters["post_logout_redirect_uri"] {
            guard let client, RegisteredURLMatching.matches(uri, anyOf: client.postLogoutRedirectURIs) else {
                return errorPage(
                    DevIdPError(.invalidRedirectURI, "the post_logout_redirect_uri is not registered for the client"))
            }
            destination = uri
        }
        let logout = PendingLogout(postLogoutRedirectURI: destination, state: parameters["state"])
        let session = await stores.sessions.session(cookie: request.cookie(IdPCookies.session), now: now)
        if session == nil || (hint != nil && hint?.all["sid"]?.stringValue == session?.sid) {
            return await finishLogout(logout, request: request)
        }
        guard let handle = await stores.interactions.begin(.logout(logout), now: now, lifetime: lifetimes.pendingLogin)
        else { return errorPage(DevIdPError(.serverError, "too many logouts are pending; try again later")) }
        var response = EndpointResponse.html(IdPPages.confirmLogout(handle: handle))
        response.setCookie(IdPCookies.set(IdPCookies.interaction, value: handle, maxAge: Int(lifetimes.pendingLogin)))
        return response
    }

    /// `POST /logout/confirm`: the confirmation page's button.
    func confirmLogout(_ request: EndpointRequest) async -> EndpointResponse {
        guard let form = try? request.formParameters(), let handle = form["logout"],
            let entry = await stores.interactions.current(
                handle: handle, cookie: request.cookie(IdPCookies.interaction), now: now),
            case .logout(let logout) = entry.interaction
        else { return errorPage(DevIdPError(.loginExpired, "this logout expired or was not started in this browser")) }
        await stores.interactions.finish(handle: handle, now: now)
        return await finishLogout(logout, request: request)
    }

    /// Ends the browser's session and sends it on.
    private func finishLogout(_ logout: PendingLogout, request: EndpointRequest) async -> EndpointResponse {
        _ = await stores.sessions.end(cookie: request.cookie(IdPCookies.session), now: now)
        var response: EndpointResponse
        if let destination = logout.postLogoutRedirectURI {
            let pairs = logout.state.map { [("state", $0)] } ?? []
            response = .redirect(
                to: pairs.isEmpty ? destination : Self.url(destination, adding: pairs),
                afterPOST: request.method == .post)
        } else {
            response = .html(IdPPages.signedOut)
        }
        response.setCookie(IdPCookies.clear(IdPCookies.session))
        response.setCookie(IdPCookies.clear(IdPCookies.interaction))
        return response
    }

    /// An ID token this IdP issued, expired or not (RP-Initiated Logout §2: the hint may have expired).
    private func verifiedHint(_ token: String) async throws(DevIdPError) -> IDTokenClaims {
        let keys: JSONWebKeySet
        do {
            keys = try JSONWebKeySet(document: .object(["keys": .array([.object(configuration.keys.publicJWK)])]))
        } catch {
            throw DevIdPError(.serverError, "the IdP's own key set could not be read")
        }
        let verifier = IDTokenVerifier(
            configuration: .init(
                issuer: site.issuer, clientID: "", allowedAlgorithms: [.rs256], checks: [.issuer]),
            keys: StaticKeySource(keys), clock: configuration.clock)
        do {
            return try await verifier.verify(token)
        } catch {
            throw DevIdPError(.invalidRequest, "the id_token_hint is not an ID token of this IdP (\(error.code))")
        }
    }
}

extension Optional {
    /// Maps the wrapped value with an async, throwing transform.
    fileprivate func asyncMap<Mapped, Failure: Error>(
        _ transform: (Wrapped) async throws(Failure) -> Mapped
    ) async throws(Failure) -> Mapped? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
