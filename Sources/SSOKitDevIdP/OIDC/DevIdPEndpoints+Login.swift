import Foundation
import HTTPTypes

extension DevIdPEndpoints {
    /// Wrong passwords allowed on one login form before the login is refused to the client.
    static let attemptsPerLogin = 5

    /// `POST /login`: the login form of a pending OIDC or SAML login. The form's handle must be live and match the
    /// browser's interaction cookie. A right password starts a session and completes the login; a wrong one shows the
    /// form again (401), and the fifth ends the login with `access_denied` (OIDC) or a failed Response (SAML).
    func login(_ request: EndpointRequest) async -> EndpointResponse {
        guard let form = try? request.formParameters(), let handle = form["login"],
            let entry = await stores.interactions.current(
                handle: handle, cookie: request.cookie(IdPCookies.interaction), now: now)
        else {
            return errorPage(DevIdPError(.loginExpired, "this login expired or was not started in this browser"))
        }
        let audience: String
        switch entry.interaction {
        case .oidcLogin(let authorization): audience = authorization.clientID
        case .samlLogin(let authentication): audience = authentication.serviceProviderEntityID
        case .logout: return errorPage(DevIdPError(.loginExpired, "this form is not a login"))
        }
        if form["action"] == "cancel" {
            await stores.interactions.finish(handle: handle, now: now)
            return await refuse(entry.interaction, DevIdPError(.invalidCredentials, "the user cancelled the login"))
        }
        let username = form["username"] ?? ""
        let password = form["password"] ?? ""
        if await stores.throttle.isLocked(username, now: now) {
            return loginPage(
                handle: handle, audience: audience, username: username,
                message: "Too many wrong passwords for this user. Wait five minutes.", status: .tooManyRequests)
        }
        guard let user = authenticatedUser(username: username, password: password) else {
            await stores.throttle.recordFailure(username, now: now)
            let failures = await stores.interactions.recordFailure(handle: handle, now: now)
            guard failures < Self.attemptsPerLogin else {
                await stores.interactions.finish(handle: handle, now: now)
                return await refuse(entry.interaction, DevIdPError(.tooManyAttempts, "too many wrong passwords"))
            }
            return loginPage(
                handle: handle, audience: audience, username: username, message: "Wrong username or password.",
                status: .unauthorized)
        }
        await stores.throttle.recordSuccess(username, now: now)
        await stores.interactions.finish(handle: handle, now: now)
        // A new login replaces the browser's session (prompt=login, ForceAuthn, another user).
        _ = await stores.sessions.end(cookie: request.cookie(IdPCookies.session), now: now)
        guard let started = await stores.sessions.start(username: user.username, now: now, lifetime: lifetimes.session)
        else { return errorPage(DevIdPError(.serverError, "too many sessions are open; try again later")) }
        var response: EndpointResponse
        switch entry.interaction {
        case .oidcLogin(let authorization):
            response = await issueCode(authorization, session: started.session, afterPOST: true)
        case .samlLogin(let authentication):
            response = await samlAnswer(authentication, session: started.session)
        case .logout:
            response = errorPage(DevIdPError(.loginExpired, "this form is not a login"))
        }
        response.setCookie(IdPCookies.set(IdPCookies.session, value: started.cookie, maxAge: Int(lifetimes.session)))
        response.setCookie(IdPCookies.clear(IdPCookies.interaction))
        return response
    }

    /// The user whose password `password` is; unknown usernames cost a hash too, so timing does not tell them.
    private func authenticatedUser(username: String, password: String) -> DevIdPUser? {
        guard let user = users[username] else {
            _ = PasswordHash.decoy?.matches(password)
            return nil
        }
        return user.hasPassword(password) ? user : nil
    }

    /// Ends a login without a user: `access_denied` to the OIDC client, a Response with status AuthnFailed to the SP.
    private func refuse(_ interaction: PendingInteraction, _ error: DevIdPError) async -> EndpointResponse {
        var response: EndpointResponse
        switch interaction {
        case .oidcLogin(let authorization):
            response = authorizationError(
                DevIdPError(.accessDenied, error.reason), redirectURI: authorization.redirectURI,
                state: authorization.state, afterPOST: true)
        case .samlLogin(let authentication):
            response = await samlFailure(authentication, status: .authnFailed)
        case .logout:
            response = errorPage(error)
        }
        response.setCookie(IdPCookies.clear(IdPCookies.interaction))
        return response
    }
}
