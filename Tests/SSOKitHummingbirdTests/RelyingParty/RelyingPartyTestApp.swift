import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SSOKitConformance
import SSOKitCore
import SSOKitDevIdP
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitSAML
import SSOKitTesting

/// The dev IdP on 127.0.0.1 and a web app protected by ``RelyingPartyRoutes`` (tested through Hummingbird's router
/// test client at a loopback base URL that the dev IdP's demo registrations accept on any port).
struct RelyingPartyTestApp {
    static let baseURL = "http://127.0.0.1:8123"
    static let username = "demo"

    let password: String
    let clock: AdjustableClock
    let routes: RelyingPartyRoutes

    /// Starts the dev IdP, runs `body` against the app with a browser, then stops the IdP.
    static func run(
        protocols: Set<SignedInUser.SignInProtocol> = [.openIDConnect, .saml],
        _ body: @Sendable (RelyingPartyTestApp, TestWebBrowser, @Sendable () -> TestWebBrowser) async throws -> Void
    ) async throws {
        let password = "pw-" + UUID().uuidString
        let keys = try DevIdPSigningKeys.generate()
        let idp = try DevIdentityProvider(
            configuration: DevIdPConfiguration(keys: keys, users: [try DevIdPUser.demo(password: password)]))
        var issuer = try await idp.start().absoluteString
        while issuer.hasSuffix("/") { issuer.removeLast() }
        let transport = AsyncHTTPClientTransport()
        do {
            let clock = AdjustableClock(start: Date())
            var configuration = RelyingPartyConfiguration(
                baseURL: baseURL,
                paths: RelyingPartyPaths(openIDConnectCallback: "/callback", samlAssertionConsumerService: "/saml/acs"))
            if protocols.contains(.openIDConnect) {
                configuration.openIDConnect = OpenIDConnectSignIn(
                    relyingParty: OpenIDRelyingParty(
                        issuer: issuer, clientID: DevIdPDemo.clientID, authentication: .none, transport: transport))
            }
            if protocols.contains(.saml) {
                configuration.saml = SAMLSignIn(
                    serviceProviderEntityID: DevIdPDemo.serviceProviderEntityID,
                    identityProviderEntityID: issuer + "/saml/metadata", singleSignOnURL: issuer + "/saml/sso",
                    identityProviderCertificates: [keys.samlCertificate])
            }
            let routes = try RelyingPartyRoutes(
                configuration: configuration, storage: MemoryPersistDriver(), clock: clock)
            let app = RelyingPartyTestApp(password: password, clock: clock, routes: routes)
            let router = Router(context: SignedInUserRequestContext.self)
            routes.addRoutes(to: router)
            router.group("/profile").add(middleware: routes.signInRequired(with: .openIDConnect))
                .get { _, context in "signed in as \(context.signedInUser?.displayName ?? "nobody")" }
                .post { _, _ in "posted" }
            router.group("/saml-area").add(middleware: routes.signInRequired(with: .saml))
                .get { _, context in "signed in as \(context.signedInUser?.displayName ?? "nobody")" }
            try await Application(router: router).test(.router) { client in
                let newBrowser: @Sendable () -> TestWebBrowser = {
                    TestWebBrowser { request, body in
                        try await Self.send(request, body: body, app: client, transport: transport)
                    }
                }
                try await body(app, newBrowser(), newBrowser)
            }
        } catch {
            await idp.shutdown()
            try? await transport.shutdown()
            throw error
        }
        await idp.shutdown()
        try await transport.shutdown()
    }

    /// Sends requests for the app's origin to the router test client, and the rest (the dev IdP) over HTTP.
    private static func send(
        _ request: HTTPRequest, body: [UInt8]?, app: some TestClientProtocol, transport: any HTTPTransport
    ) async throws -> (HTTPResponse, [UInt8]) {
        guard let url = request.url, url.absoluteString.hasPrefix(baseURL) else {
            let answer = try await transport.send(request, body: body)
            return (answer.response, answer.body)
        }
        let answer = try await app.executeRequest(
            uri: request.path ?? "/", method: request.method, headers: request.headerFields,
            body: body.map { ByteBuffer(bytes: $0) })
        return (answer.head, Array(answer.body.readableBytesView))
    }

    /// Signs `browser` in with OIDC up to the IdP's redirect to the callback; returns the callback URL.
    func oidcCallback(_ browser: TestWebBrowser, returnTo: String = "/profile") async throws -> String {
        let answer = try await browser.signInAtDevIdP(
            from: Self.baseURL + "/auth/oidc/signin?return_to=" + FormURLEncoding.escape(returnTo),
            username: Self.username, password: password)
        guard [302, 303].contains(answer.status), let callback = answer.location,
            callback.hasPrefix(Self.baseURL + "/callback?")
        else { throw TestWebBrowserError("the IdP did not redirect to the callback (\(answer.status))") }
        return callback
    }

    /// Signs `browser` in with SAML up to the IdP's auto-post page; returns the ACS URL and the form's fields.
    func samlPost(_ browser: TestWebBrowser, returnTo: String = "/saml-area") async throws
        -> (action: String, response: String, relayState: String)
    {
        let page = try await browser.signInAtDevIdP(
            from: Self.baseURL + "/auth/saml/signin?return_to=" + FormURLEncoding.escape(returnTo),
            username: Self.username, password: password)
        let form = try AutoPostFormParser().parse(page.body)
        guard let relayState = form.relayState else {
            throw TestWebBrowserError("the auto-post page has no RelayState")
        }
        return (form.action, form.message, relayState)
    }
}
