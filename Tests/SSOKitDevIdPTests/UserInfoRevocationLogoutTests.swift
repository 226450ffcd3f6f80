import CryptoExtras
import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitDevIdP
import SSOKitOIDC
import Testing

/// UserInfo (RFC 6750 errors), revocation (RFC 7009) and RP-Initiated Logout 1.0.
@Suite struct UserInfoRevocationLogoutTests {
    /// Tokens for alice through `browser` (which keeps the session).
    private func tokens(_ idp: DevIdPHarness, _ browser: TestBrowser, clientID: String = "public-app") async throws
        -> [String: JSONValue]
    {
        let pkce = PKCE()
        let code = try await idp.code(browser, url: idp.authorizationURL(clientID: clientID, pkce: pkce))
        return try await idp.exchange(code, verifier: pkce.verifier, clientID: clientID).json
    }

    @Test func userInfoRefusals() async throws {
        try await DevIdPHarness.with { idp in
            let access = try #require(try await tokens(idp, idp.browser())["access_token"]?.stringValue)
            let none = try await idp.browser().get(idp.issuer + "/userinfo")
            #expect(none.status == 401)
            #expect(none.headers[.wwwAuthenticate] == "Bearer realm=\"ssokit-dev-idp\"", "RFC 6750 §3.1")
            let bad = try await idp.userInfo("not-a-token")
            #expect(bad.status == 401)
            #expect(bad.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true)
            let both = try await idp.browser().post(
                idp.issuer + "/userinfo", form: [("access_token", access)],
                headers: [("Authorization", "Bearer \(access)")])
            #expect(both.status == 400)
            #expect(both.json["error"] == .string("invalid_request"))
            let form = try await idp.browser().post(idp.issuer + "/userinfo", form: [("access_token", access)])
            #expect(form.status == 200, "RFC 6750 §2.2")
            #expect(form.json["sub"] == .string("user-alice"))
            #expect(form.json["name"] == .string("Alice Example"), "the profile scope")
            #expect(form.json["groups"] == nil, "the groups scope was not granted")
        }
    }

    @Test func revocationOfAnotherClientsTokenChangesNothing() async throws {
        try await DevIdPHarness.with { idp in
            let granted = try await tokens(idp, idp.browser())
            let access = try #require(granted["access_token"]?.stringValue)
            let refresh = try #require(granted["refresh_token"]?.stringValue)
            let foreign = try await idp.post("/revoke", [("token", refresh), ("client_id", "fixture-client")])
            #expect(foreign.status == 200, "RFC 7009 §2.2: the same answer as for any token")
            let unknown = try await idp.post("/revoke", [("token", "unknown"), ("client_id", "public-app")])
            #expect(unknown.status == 200)
            #expect(try await idp.userInfo(access).status == 200)
            let missing = try await idp.post("/revoke", [("client_id", "public-app")])
            #expect(missing.json["error"] == .string("invalid_request"))
            let own = try await idp.post(
                "/revoke", [("token", access), ("token_type_hint", "access_token"), ("client_id", "public-app")])
            #expect(own.status == 200)
            #expect(try await idp.userInfo(access).status == 401)
            #expect(try await idp.refresh(refresh).status == 200, "revoking an access token leaves the grant")
        }
    }

    @Test func logoutWithTheSessionsIDTokenRedirectsAtOnce() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            let idToken = try #require(try await tokens(idp, browser)["id_token"]?.stringValue)
            let query = FormURLEncoding.encode([
                ("id_token_hint", idToken), ("post_logout_redirect_uri", "http://127.0.0.1:40000/"),
                ("state", "bye"),
            ])
            let answer = try await browser.get(idp.issuer + "/logout?" + query)
            #expect(answer.status == 302)
            #expect(answer.location == "http://127.0.0.1:40000/?state=bye")
            #expect(await browser.cookies["ssokit_devidp_session"] == nil, "the session cookie is cleared")
            #expect(try await browser.get(idp.authorizationURL(pkce: PKCE())).isLoginForm, "the session is gone")
        }
    }

    @Test func logoutWithoutAHintAsksFirst() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            _ = try await tokens(idp, browser)
            let page = try await browser.get(idp.issuer + "/logout?client_id=public-app")
            #expect(page.status == 200)
            let handle = try #require(page.hiddenInput("logout"))
            #expect(try await browser.get(idp.authorizationURL(pkce: PKCE())).status == 302, "still signed in")
            let elsewhere = try await idp.post("/logout/confirm", [("logout", handle)])
            #expect(elsewhere.status == 400, "a confirmation from another browser is refused")
            let confirmed = try await browser.post(idp.issuer + "/logout/confirm", form: [("logout", handle)])
            #expect(confirmed.status == 200)
            #expect(confirmed.body.contains("You are signed out"))
            #expect(try await browser.get(idp.authorizationURL(pkce: PKCE())).isLoginForm)
        }
    }

    @Test func logoutRefusals() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            let idToken = try #require(try await tokens(idp, browser)["id_token"]?.stringValue)
            func logout(_ pairs: [(String, String)]) async throws -> TestResponse {
                try await browser.get(idp.issuer + "/logout?" + FormURLEncoding.encode(pairs))
            }
            let unregistered = try await logout([
                ("id_token_hint", idToken), ("post_logout_redirect_uri", "https://evil.example/"),
            ])
            #expect(unregistered.status == 400)
            #expect(unregistered.body.contains("invalid_redirect_uri"))
            let noClient = try await logout([("post_logout_redirect_uri", "http://127.0.0.1:40000/")])
            #expect(noClient.body.contains("invalid_redirect_uri"), "a redirect needs a known client")
            let mismatch = try await logout([("id_token_hint", idToken), ("client_id", "basic-app")])
            #expect(mismatch.body.contains("invalid_request"))
            // An ID token with the IdP's kid, signed by another RSA key.
            let stranger = try PrivateKeyClientAssertionSigner(
                pem: _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation,
                keyID: try DevIdPTestValues.keys.get().oidcKeyID)
            let forged = try await stranger.sign(
                ClientAssertionClaims(
                    clientID: idp.issuer, audience: "public-app", issuedAt: Date(), expiresAt: Date() + 60, jwtID: "x"))
            let bad = try await logout([("id_token_hint", forged)])
            #expect(bad.status == 400)
            #expect(bad.body.contains("invalid_request"))
            #expect(try await browser.get(idp.authorizationURL(pkce: PKCE())).status == 302, "nobody was logged out")
        }
    }
}
