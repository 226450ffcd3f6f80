import Foundation
import Hummingbird
import HummingbirdTesting
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
        _ body: @Sendable (RelyingPartyTestApp, RelyingPartyBrowser, @Sendable () -> RelyingPartyBrowser) async throws
            -> Void
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
                let newBrowser: @Sendable () -> RelyingPartyBrowser = {
                    RelyingPartyBrowser(app: client, appBaseURL: baseURL, transport: transport)
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

    /// Signs `browser` in with OIDC up to the IdP's redirect to the callback; returns the callback URL.
    func oidcCallback(_ browser: RelyingPartyBrowser, returnTo: String = "/profile") async throws -> String {
        let answer = try await browser.signIn(
            at: Self.baseURL + "/auth/oidc/signin?return_to=" + FormURLEncoding.escape(returnTo),
            username: Self.username, password: password)
        guard answer.status == 302, let callback = answer.location, callback.hasPrefix(Self.baseURL + "/callback?")
        else { throw BrowserError("the IdP did not redirect to the callback (\(answer.status))") }
        return callback
    }

    /// Signs `browser` in with SAML up to the IdP's auto-post page; returns the ACS URL and the form's fields.
    func samlPost(_ browser: RelyingPartyBrowser, returnTo: String = "/saml-area") async throws
        -> (action: String, response: String, relayState: String)
    {
        let page = try await browser.signIn(
            at: Self.baseURL + "/auth/saml/signin?return_to=" + FormURLEncoding.escape(returnTo),
            username: Self.username, password: password)
        let form = try AutoPostFormParser().parse(page.body)
        guard let relayState = form.relayState else { throw BrowserError("the auto-post page has no RelayState") }
        return (form.action, form.message, relayState)
    }
}
