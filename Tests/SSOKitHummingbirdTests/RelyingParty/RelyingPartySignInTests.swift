import Foundation
import Hummingbird
import SSOKitConformance
import SSOKitCore
import SSOKitHummingbird
import SSOKitTesting
import Testing

/// Full OIDC and SAML sign-ins through ``RelyingPartyRoutes`` against the dev IdP, and every way they are refused.
@Suite(.serialized) struct RelyingPartySignInTests {
    static let base = RelyingPartyTestApp.baseURL

    @Test func openIDConnectSignInFromAProtectedPage() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let protected = try await browser.get(Self.base + "/profile")
            #expect(protected.status == 302)
            #expect(protected.location == "/auth/oidc/signin?return_to=%2Fprofile")
            let start = try await browser.get(Self.base + "/auth/oidc/signin?return_to=%2Fprofile")
            let loginCookie = try #require(start.setCookie("ssokit_login"))
            #expect(loginCookie.contains("HttpOnly") && loginCookie.contains("SameSite=Lax"))
            #expect(!loginCookie.contains("Secure"))
            let authorize = try #require(start.location.flatMap(URLComponents.init(string:)))
            let query = Dictionary(authorize.queryItems?.map { ($0.name, $0.value ?? "") } ?? []) { a, _ in a }
            #expect(query["code_challenge_method"] == "S256")
            #expect(query["nonce"]?.isEmpty == false && query["state"]?.isEmpty == false)

            let callback = try await app.oidcCallback(browser)
            let signedIn = try await browser.get(callback)
            #expect(signedIn.status == 302)
            #expect(signedIn.location == "/profile")
            let session = try #require(signedIn.setCookie("ssokit_session"))
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Lax"))
            let page = try await browser.get(Self.base + "/profile")
            #expect(page.status == 200)
            #expect(page.body == "signed in as Demo User")
        }
    }

    @Test func samlSignInThroughTheACS() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let protected = try await browser.get(Self.base + "/saml-area")
            #expect(protected.location == "/auth/saml/signin?return_to=%2Fsaml-area")
            let post = try await app.samlPost(browser)
            #expect(post.action == Self.base + "/saml/acs")
            let answer = try await browser.post(
                post.action, form: [("SAMLResponse", post.response), ("RelayState", post.relayState)])
            #expect(answer.status == 303)
            #expect(answer.location == "/saml-area")
            let page = try await browser.get(Self.base + "/saml-area")
            #expect(page.body == "signed in as Demo User")
        }
    }

    @Test func aCallbackWithAnotherStateIsRefused() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let callback = try await app.oidcCallback(browser)
            var components = try #require(URLComponents(string: callback))
            let code = components.queryItems?.first { $0.name == "code" }?.value ?? ""
            components.queryItems = components.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged-state") : $0
            }
            let refused = try await browser.get(try #require(components.string))
            #expect(refused.status == 400)
            #expect(refused.body.contains("login_state_unknown"))
            #expect(!refused.body.contains(code))
            #expect(refused.setCookie("ssokit_session") == nil)
            let missing = try await browser.get(Self.base + "/callback?code=abc")
            #expect(missing.status == 400 && missing.body.contains("login_state_missing"))
        }
    }

    @Test func aReplayedCallbackIsRefused() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let callback = try await app.oidcCallback(browser)
            #expect(try await browser.get(callback).status == 302)
            let replay = try await browser.get(callback)
            #expect(replay.status == 400)
            #expect(replay.body.contains("login_state_replayed"))
        }
    }

    @Test func aReplayedSAMLResponseIsRefused() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let post = try await app.samlPost(browser)
            let form = [("SAMLResponse", post.response), ("RelayState", post.relayState)]
            #expect(try await browser.post(post.action, form: form).status == 303)
            let again = try await browser.post(post.action, form: form)
            #expect(again.status == 400 && again.body.contains("login_state_replayed"))
            // The same Response under a new sign-in's RelayState answers another request.
            let fresh = try await app.samlPost(browser)
            let reused = try await browser.post(
                post.action, form: [("SAMLResponse", post.response), ("RelayState", fresh.relayState)])
            #expect(reused.status == 403 && reused.body.contains("assertion_rejected"))
        }
    }

    @Test func anExpiredLoginStateIsRefused() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let callback = try await app.oidcCallback(browser)
            let post = try await app.samlPost(browser)
            app.clock.advance(601)
            let late = try await browser.get(callback)
            #expect(late.status == 400 && late.body.contains("login_state_expired"))
            let lateSAML = try await browser.post(
                post.action, form: [("SAMLResponse", post.response), ("RelayState", post.relayState)])
            #expect(lateSAML.status == 400 && lateSAML.body.contains("login_state_expired"))
        }
    }

    @Test func aCallbackForAnotherBrowserIsRefusedAndSpoilsNothing() async throws {
        try await RelyingPartyTestApp.run { app, browser, newBrowser in
            let callback = try await app.oidcCallback(browser)
            let other = newBrowser()
            let refused = try await other.get(callback)
            #expect(refused.status == 403 && refused.body.contains("login_state_wrong_browser"))
            _ = try await other.get(Self.base + "/auth/oidc/signin")
            let withItsOwnCookie = try await other.get(callback)
            #expect(withItsOwnCookie.status == 403 && withItsOwnCookie.body.contains("login_state_wrong_browser"))
            #expect(try await browser.get(callback).location == "/profile")
        }
    }

    @Test func aSAMLResponseForAnotherBrowserIsRefusedAfterOneResubmission() async throws {
        try await RelyingPartyTestApp.run { app, browser, newBrowser in
            let post = try await app.samlPost(browser)
            let form = [("SAMLResponse", post.response), ("RelayState", post.relayState)]
            let other = newBrowser()
            // No login cookie, as after a cross-site post: the page posts the form again from this site.
            let resubmit = try await other.post(post.action, form: form)
            #expect(resubmit.status == 200)
            #expect(resubmit.formAction == Self.base + "/saml/acs?resubmitted=1")
            #expect(resubmit.hiddenInput("RelayState") == post.relayState)
            #expect(resubmit.headers[.contentSecurityPolicy]?.contains("script-src 'nonce-") == true)
            let refused = try await other.post(try #require(resubmit.formAction), form: form)
            #expect(refused.status == 403 && refused.body.contains("login_state_wrong_browser"))
            let signedIn = try await browser.post(post.action, form: form)
            #expect(signedIn.status == 303 && signedIn.location == "/saml-area")
        }
    }

    @Test func theRealBrowserCompletesAfterAResubmission() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let post = try await app.samlPost(browser)
            let form = [("SAMLResponse", post.response), ("RelayState", post.relayState)]
            let cookie = try #require(await browser.cookies["ssokit_login"])
            await browser.forget("ssokit_login")
            let resubmit = try await browser.post(post.action, form: form)
            #expect(resubmit.status == 200)
            await browser.restore("ssokit_login", cookie)
            let signedIn = try await browser.post(try #require(resubmit.formAction), form: form)
            #expect(signedIn.status == 303)
        }
    }

    @Test func aSignInTheUserCancelsAtTheIdPIsRefused() async throws {
        try await RelyingPartyTestApp.run { app, browser, _ in
            let oidc = try await browser.signInAtDevIdP(
                from: Self.base + "/auth/oidc/signin", username: "demo", password: app.password, action: "cancel")
            let callback = try #require(oidc.location)
            #expect(callback.contains("error=access_denied"))
            let refused = try await browser.get(callback)
            #expect(refused.status == 403 && refused.body.contains("identity_provider_refused"))
            let saml = try await browser.signInAtDevIdP(
                from: Self.base + "/auth/saml/signin", username: "demo", password: app.password, action: "cancel")
            let form = [
                ("SAMLResponse", try #require(saml.hiddenInput("SAMLResponse"))),
                ("RelayState", try #require(saml.hiddenInput("RelayState"))),
            ]
            let refusedSAML = try await browser.post(Self.base + "/saml/acs", form: form)
            #expect(refusedSAML.status == 403 && refusedSAML.body.contains("identity_provider_refused"))
            #expect(await browser.cookies["ssokit_session"] == nil)
        }
    }
}
