import Foundation
import Hummingbird
import HummingbirdTesting
import SSOKitCore
import SSOKitHummingbird
import SSOKitTesting
import Testing

/// The relying party's routes around the sign-in itself: sessions, sign-out, where a browser returns to, requests
/// of the wrong shape, and configurations that cannot work.
@Suite(.serialized) struct RelyingPartyRouteTests {
    static let base = RelyingPartyTestApp.baseURL

    @Test func signOutEndsTheSession() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            _ = try await browser.get(try await app.oidcCallback(browser))
            let before = try #require(await browser.cookies["ssokit_session"])
            let out = try await browser.post(Self.base + "/auth/signout", form: [])
            #expect(out.status == 303 && out.location == "/")
            #expect(await browser.cookies["ssokit_session"] == nil)
            #expect(try await browser.get(Self.base + "/profile").status == 302)
            // The old cookie, replayed, is worth nothing either.
            await browser.restore("ssokit_session", before)
            #expect(try await browser.get(Self.base + "/profile").status == 302)
        }
    }

    @Test func aNewSignInReplacesTheSession() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            _ = try await browser.get(try await app.oidcCallback(browser))
            let first = try #require(await browser.cookies["ssokit_session"])
            _ = try await browser.get(try await app.oidcCallback(browser))
            let second = try #require(await browser.cookies["ssokit_session"])
            #expect(first != second)
            await browser.restore("ssokit_session", first)
            #expect(try await browser.get(Self.base + "/profile").status == 302)
        }
    }

    @Test(arguments: ["//evil.example/x", "https://evil.example/", "/\\evil.example", "relative", "/ok\tb"])
    func returnPathsStayOnTheService(_ target: String) async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let answer = try await browser.get(try await app.oidcCallback(browser, returnTo: target))
            #expect(answer.status == 302 && answer.location == "/")
        }
    }

    @Test func anUnauthenticatedPostGets401() async throws {
        try await RelyingPartyTestApp.run { _, browser, _ in
            let answer = try await browser.post(Self.base + "/profile", form: [("a", "b")])
            #expect(answer.status == 401 && answer.body.contains("sign_in_required"))
        }
    }

    @Test func malformedACSRequestsAreRefused() async throws {
        try await RelyingPartyTestApp.run { _, browser, _ in
            let missing = try await browser.post(Self.base + "/saml/acs", form: [("RelayState", "x")])
            #expect(missing.status == 400 && missing.body.contains("malformed_request"))
            let noRelayState = try await browser.post(Self.base + "/saml/acs", form: [("SAMLResponse", "PHg+")])
            #expect(noRelayState.status == 400 && noRelayState.body.contains("login_state_missing"))
            let repeated = try await browser.post(
                Self.base + "/saml/acs",
                form: [("SAMLResponse", "PHg+"), ("SAMLResponse", "PHk+"), ("RelayState", "x")])
            #expect(repeated.status == 400 && repeated.body.contains("malformed_request"))
            let huge = try await browser.post(
                Self.base + "/saml/acs",
                form: [("SAMLResponse", String(repeating: "A", count: RelyingPartyRoutes.maximumFormBytes))])
            #expect(huge.status == 413 && huge.body.contains("request_too_large"))
        }
    }

    @Test func aProtocolThatIsNotConfiguredAnswers404() async throws {
        try await RelyingPartyTestApp.run(protocols: [.openIDConnect]) { _, browser, _ in
            let answer = try await browser.get(Self.base + "/auth/saml/signin")
            #expect(answer.status == 404 && answer.body.contains("protocol_not_configured"))
        }
    }

    @Test(arguments: ["http://app.example.com", "ftp://127.0.0.1", "https://app.example.com/", "not a url"])
    func unworkableBaseURLsAreRefused(_ baseURL: String) throws {
        #expect(throws: RelyingPartyError.self) {
            try RelyingPartyRoutes(
                configuration: RelyingPartyConfiguration(baseURL: baseURL), storage: MemoryPersistDriver())
        }
    }

    @Test func httpsServicesGetSecureHostCookies() async throws {
        let routes = try RelyingPartyRoutes(
            configuration: RelyingPartyConfiguration(baseURL: "https://app.example.com"), storage: MemoryPersistDriver()
        )
        let router = Router(context: SignedInUserRequestContext.self)
        routes.addRoutes(to: router)
        try await Application(router: router).test(.router) { client in
            let answer = try await client.executeRequest(uri: "/auth/signout", method: .post, headers: [:], body: nil)
            let cookie = try #require(answer.headers[values: .setCookie].first)
            #expect(cookie.hasPrefix("__Host-ssokit_session=;"))
            #expect(cookie.contains("Secure") && cookie.contains("HttpOnly") && cookie.contains("Path=/"))
        }
    }
}
