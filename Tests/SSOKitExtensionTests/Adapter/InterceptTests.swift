import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import Testing

/// A web app's authorization request intercepted: completed with the IdP session and answered with a compact 302,
/// the app's state, nonce and PKCE challenge untouched.
@Suite struct InterceptTests {
    /// The web app's own authorization request (its client, redirect URI, state, nonce and PKCE pair).
    struct WebApp {
        let pkce = PKCE()
        let state = RandomToken.make()
        let nonce = RandomToken.make()
        let redirectURI = "https://app.test/oidc/callback"

        var url: URL {
            SSOKitOIDC.AuthorizationRequest(
                endpoint: URL(string: "https://idp.test/authorize")!, clientID: "adapter-client",
                redirectURI: redirectURI,
                state: state, nonce: nonce, pkce: pkce
            ).url
        }

        func request(ui: Bool = true) -> SSOKitExtension.AuthorizationRequest {
            SSOKitExtension.AuthorizationRequest(
                url: url, callerBundleIdentifier: "com.apple.Safari", isUserInterfaceEnabled: ui)
        }
    }

    @Test func aCompact302WithTheAppsOwnStateAndACodeBoundToItsPKCE() async throws {
        let harness = try standardHarness()
        await harness.login("com.example.mail")
        let app = WebApp()
        let result = await harness.adapter.authorize(app.request())
        let response = try #require(result.response, "\(result)")
        #expect(response.status == 302 && response.body.isEmpty)
        #expect(Set(response.headerFields.map(\.name)) == [.location, .cacheControl])
        #expect(response[.cacheControl] == "no-store")
        let location = try #require(response[.location].flatMap(URL.init(string:)))
        #expect(location.absoluteString.hasPrefix(app.redirectURI + "?"))
        let query = try #require(FormURLEncoding.decode(location.query ?? ""))
        let values = Dictionary(query, uniquingKeysWith: { first, _ in first })
        #expect(values["state"] == app.state && values["iss"] == "https://idp.test")
        // The code is the web app's: it redeems with the app's verifier, and its ID token carries the app's nonce.
        let party = OpenIDRelyingParty(
            issuer: "https://idp.test", clientID: "adapter-client",
            authentication: .clientSecretBasic("adapter-secret"),
            transport: harness.idp.transport, clock: harness.clock)
        let original = SSOKitOIDC.AuthorizationRequest(
            endpoint: URL(string: "https://idp.test/authorize")!, clientID: "adapter-client",
            redirectURI: app.redirectURI,
            state: app.state, nonce: app.nonce, pkce: app.pkce)
        let login = try await party.completeLogin(callbackQuery: location.query ?? "", request: original)
        #expect(login.claims.nonce == app.nonce)
    }

    @Test func aLoginFormBecomesAnInteractionThatEndsInThe302() async throws {
        let harness = try standardHarness()
        let app = WebApp()
        let interaction = try #require(await harness.adapter.authorize(app.request()).interaction)
        let result = await harness.adapter.resume(interaction: interaction.id, with: credentials(harness))
        #expect(result.response?.status == 302, "\(result)")
        #expect(result.response?[.location]?.hasPrefix(app.redirectURI + "?code=") == true)
        #expect(await harness.adapter.authorize(app.request(ui: false)).failure == nil)
    }

    @Test func withoutUIAndWithoutASessionItFailsNotInteractive() async throws {
        let harness = try standardHarness()
        let result = await harness.adapter.authorize(WebApp().request(ui: false))
        #expect(result.failure == AuthorizationFailure(.notInteractive, .loginRequired, ""))
    }

    @Test func otherRequestsUnderThePrefixAreNotHandled() async throws {
        let harness = try AdapterHarness(payloads: [
            AdapterHarness.oidcPayload(routes: #""URLs": ["https://idp.test/"]"#)
        ])
        for (method, url) in [("GET", "https://idp.test/jwks"), ("POST", WebApp().url.absoluteString)] {
            let request = SSOKitExtension.AuthorizationRequest(
                url: URL(string: url), httpMethod: method, callerBundleIdentifier: "com.apple.Safari")
            #expect(await harness.adapter.authorize(request) == .doNotHandle)
        }
    }
}
