import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitSAML

/// A small browser for talking to an IdP the way a user's browser would, without running any script: it sends the
/// IdP's cookies, follows at most ``ExtensionLimits/maximumRedirects`` redirects (and auto-post forms) while they
/// stay on the IdP's origins, and stops at the first redirect that leaves them, a page that auto-posts a SAML
/// message elsewhere, a login form, or anything else.
///
/// Every URL must be https (or http on a loopback host); each page is read up to
/// ``ExtensionLimits/maximumPageBytes``.
struct IdentityProviderBrowser: Sendable {
    let transport: any HTTPTransport
    let clock: any SSOKitClock
    let limits: ExtensionLimits

    /// Walks from `start` through the IdP; `jar` gains the cookies the IdP sets. A redirect whose target starts
    /// with one of `stopAt` ends the walk even on an IdP origin.
    func navigate(
        _ start: BrowserStep, jar: inout CookieJar, origins: IdPOrigins, stopAt: [String] = []
    ) async throws(AuthorizationFailure) -> BrowserOutcome {
        var step = start
        let walkClock = ContinuousClock()
        let walkDeadline = walkClock.now + limits.maximumWalkDuration
        for _ in 0...limits.maximumRedirects {
            guard walkClock.now < walkDeadline else {
                throw AuthorizationFailure(
                    .failed, .idpError, "the IdP did not finish within \(limits.maximumWalkDuration)")
            }
            guard EndpointSecurity.isAllowed(step.url), origins.contains(step.url) else {
                throw AuthorizationFailure(.failed, .idpError, "the IdP sent the browser to a URL it may not use")
            }
            let response = try await send(step, jar: jar)
            let now = clock.now
            for value in response.response.headerFields[values: .setCookie] {
                jar.store(setCookie: value, from: step.url, now: now)
            }
            let status = response.response.status.code
            if [301, 302, 303, 307, 308].contains(status) {
                guard let location = response.response.headerFields[.location],
                    let next = URL(string: location, relativeTo: step.url)?.absoluteURL
                else {
                    throw AuthorizationFailure(.failed, .idpError, "the IdP redirected without a usable Location")
                }
                if stopAt.contains(where: { next.absoluteString.hasPrefix($0) }) || !origins.contains(next) {
                    return .left(next)
                }
                let keepsMethod = status == 307 || status == 308
                step =
                    keepsMethod
                    ? BrowserStep(method: step.method, url: next, body: step.body, contentType: step.contentType)
                    : .get(next)
                continue
            }
            guard Self.isHTML(response.response) else { return .page(status: status) }
            if let content = try? AutoPostFormParser(maximumPageBytes: limits.maximumPageBytes).parse(
                response.body, pageURL: step.url)
            {
                guard let action = URL(string: content.action), origins.contains(action) else {
                    return .autoPost(content)
                }
                // A SAML hop between the IdP's own endpoints: submit it, as the page's script would.
                var pairs = [(content.kind.rawValue, content.message)]
                if let relayState = content.relayState { pairs.append(("RelayState", relayState)) }
                step = .postForm(action, body: Array(FormURLEncoding.encode(pairs).utf8))
                continue
            }
            if let form = LoginFormParser.find(in: response.body, pageURL: step.url) { return .loginForm(form) }
            return .page(status: status)
        }
        throw AuthorizationFailure(
            .failed, .tooManyRedirects, "the IdP redirected more than \(limits.maximumRedirects) times")
    }

    private func send(_ step: BrowserStep, jar: CookieJar) async throws(AuthorizationFailure) -> HTTPTransportResponse {
        guard let components = URLComponents(url: step.url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme, let host = components.host
        else { throw AuthorizationFailure(.failed, .idpError, "the IdP URL is not absolute") }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        var request = HTTPRequest(method: step.method, scheme: scheme, authority: authority, path: path)
        request.headerFields[.accept] = "text/html,application/xhtml+xml,*/*;q=0.8"
        request.headerFields[.userAgent] = "SSOKit"
        // One Cookie line (RFC 6265 §5.4): the fields' subscript would split it into one field per cookie.
        if let cookie = jar.header(for: step.url, now: clock.now) {
            request.headerFields.append(HTTPField(name: .cookie, value: cookie))
        }
        if let contentType = step.contentType { request.headerFields[.contentType] = contentType }
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(request, body: step.body)
        } catch let error as HTTPTransportError {
            throw AuthorizationFailure(
                .failed, .idpError, "the IdP at \(authority) could not be reached: \(error.code)")
        } catch {
            throw AuthorizationFailure(.failed, .idpError, "the IdP at \(authority) could not be reached")
        }
        guard response.body.count <= limits.maximumPageBytes else {
            throw AuthorizationFailure(
                .failed, .idpError, "the IdP's page is larger than \(limits.maximumPageBytes) bytes")
        }
        return response
    }

    /// HTML, or a body of no declared type.
    private static func isHTML(_ response: HTTPResponse) -> Bool {
        guard let type = response.headerFields[.contentType]?.lowercased() else { return true }
        return type.hasPrefix("text/html") || type.hasPrefix("application/xhtml")
    }
}
