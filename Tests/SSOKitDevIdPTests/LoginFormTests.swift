import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitDevIdP
import SSOKitOIDC
import Testing

/// The login form: wrong passwords, the attempt limit, cancel, the browser binding of a pending login, the
/// per-user lockout, and escaping.
@Suite struct LoginFormTests {
    @Test func wrongPasswordShowsTheFormAgainThenDeniesAccess() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            let url = idp.authorizationURL(pkce: PKCE())
            let state = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "state" }?.value)
            var page = try await browser.get(url)
            for attempt in 1...4 {
                page = try await browser.submitLogin(page, username: "alice", password: "wrong-\(attempt)")
                #expect(page.status == 401)
                #expect(page.isLoginForm)
                #expect(page.body.contains("Wrong username or password."))
                #expect(page.body.contains("value=\"alice\""), "the username is kept")
            }
            let fifth = try await browser.submitLogin(page, username: "alice", password: "wrong-5")
            #expect(fifth.status == 303)
            #expect(fifth.locationQuery["error"] == "access_denied")
            #expect(fifth.locationQuery["state"] == state)
            #expect(fifth.locationQuery["iss"] == idp.issuer)
            let late = try await browser.submitLogin(page, username: "alice", password: DevIdPTestValues.password)
            #expect(late.status == 400, "the login ended with the fifth attempt")
            #expect(late.body.contains("login_expired"))
        }
    }

    @Test func unknownUserIsAnsweredLikeAWrongPassword() async throws {
        try await DevIdPHarness.with { idp in
            let page = try await idp.browser().signIn(
                at: idp.authorizationURL(pkce: PKCE()), username: "mallory", password: "guess")
            #expect(page.status == 401)
            #expect(page.body.contains("Wrong username or password."))
        }
    }

    @Test func cancelDeniesAccess() async throws {
        try await DevIdPHarness.with { idp in
            let page = try await idp.browser().signIn(
                at: idp.authorizationURL(pkce: PKCE()), username: "", password: "", action: "cancel")
            #expect(page.status == 303)
            #expect(page.locationQuery["error"] == "access_denied")
        }
    }

    @Test func pendingLoginIsBoundToTheBrowser() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            let page = try await browser.get(idp.authorizationURL(pkce: PKCE()))
            // A form posted without the browser's interaction cookie (another browser, or a cross-site POST that
            // SameSite=Lax keeps the cookie from) matches no login.
            await browser.dropCookie("ssokit_devidp_interaction")
            let forged = try await browser.submitLogin(page, username: "alice", password: DevIdPTestValues.password)
            #expect(forged.status == 400)
            #expect(forged.body.contains("login_expired"))
            #expect(await browser.cookies["ssokit_devidp_session"] == nil, "no session was started")
            let unknown = try await idp.post(
                "/login", [("login", "not-a-handle"), ("username", "alice"), ("password", DevIdPTestValues.password)])
            #expect(unknown.status == 400)
        }
    }

    @Test func pendingLoginExpires() async throws {
        let clock = AdjustableClock(start: Date())
        try await DevIdPHarness.with(clock: clock) { idp in
            let browser = idp.browser()
            let page = try await browser.get(idp.authorizationURL(pkce: PKCE()))
            clock.advance(601)
            let late = try await browser.submitLogin(page, username: "alice", password: DevIdPTestValues.password)
            #expect(late.status == 400)
            #expect(late.body.contains("login_expired"))
        }
    }

    @Test func tooManyWrongPasswordsLockTheUserOut() async throws {
        let clock = AdjustableClock(start: Date())
        try await DevIdPHarness.with(clock: clock) { idp in
            // Ten wrong passwords over two forms: the user is locked out of every form for five minutes.
            for _ in 0..<2 {
                let browser = idp.browser()
                var page = try await browser.get(idp.authorizationURL(pkce: PKCE()))
                for _ in 0..<4 { page = try await browser.submitLogin(page, username: "bob", password: "nope") }
                _ = try await browser.submitLogin(page, username: "bob", password: "nope")
            }
            let browser = idp.browser()
            let locked = try await browser.signIn(
                at: idp.authorizationURL(pkce: PKCE()), username: "bob", password: "bob-password")
            #expect(locked.status == 429)
            #expect(locked.body.contains("Too many wrong passwords"))
            #expect(
                try await idp.browser().signIn(
                    at: idp.authorizationURL(pkce: PKCE()), username: "alice", password: DevIdPTestValues.password
                ).status == 303, "other users are not affected")
            clock.advance(301)
            let later = try await browser.submitLogin(locked, username: "bob", password: "bob-password")
            #expect(later.status == 303)
        }
    }

    @Test func pagesEscapeWhatTheyShow() async throws {
        let hostile = "app\"><script>alert(1)</script>"
        var clients = DevIdPTestValues.clients()
        clients.append(
            OIDCClientRegistration(clientID: hostile, authentication: .none, redirectURIs: ["http://127.0.0.1/cb"]))
        try await DevIdPHarness.with(clients: clients) { idp in
            let browser = idp.browser()
            let page = try await browser.get(
                idp.authorizationURL(clientID: hostile, pkce: PKCE(), redirectURI: "http://127.0.0.1:5/cb"))
            #expect(page.isLoginForm)
            #expect(!page.body.contains("<script>"))
            #expect(page.body.contains("app&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
            let again = try await browser.submitLogin(page, username: "<img src=x onerror=1>", password: "x")
            #expect(!again.body.contains("<img"))
            #expect(again.body.contains("&lt;img src=x onerror=1&gt;"))
            #expect(again.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
        }
    }
}
