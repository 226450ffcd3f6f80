import Crypto
import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitDevIdP
import SSOKitOIDC
import Testing

/// Whole logins through the login form, completed by SSOKit's own relying party for every client authentication
/// method: PKCE, RFC 9207 `iss`, the ID token's claims, UserInfo, refresh with rotation, revocation.
@Suite struct OIDCLoginTests {
    static let scopes = ["openid", "profile", "email", "groups"]

    /// Signs in through the form and returns the callback's query.
    private func callback(_ idp: DevIdPHarness, _ browser: TestBrowser, _ request: AuthorizationRequest) async throws
        -> String
    {
        let answer = try await browser.signIn(
            at: request.url.absoluteString, username: "alice", password: DevIdPTestValues.password)
        #expect(answer.status == 303, "the login form answers 303 See Other")
        let cookie = try #require(answer.setCookie("ssokit_devidp_session"))
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=28800"] {
            #expect(cookie.contains(attribute), "\(attribute) in \(cookie)")
        }
        let location = try #require(answer.location)
        #expect(location.hasPrefix(request.redirectURI + "?"))
        return try #require(URLComponents(string: location)?.percentEncodedQuery)
    }

    @Test func publicClientLogsInRefreshesAndRevokes() async throws {
        try await DevIdPHarness.with { idp in
            let party = idp.party("public-app")
            let browser = idp.browser()
            let request = try await party.authorizationRequest(
                redirectURI: "http://127.0.0.1:40123/callback", scopes: Self.scopes)
            let login = try await party.completeLogin(
                callbackQuery: try await callback(idp, browser, request), request: request)
            let claims = login.claims
            #expect(claims.subject == "user-alice")
            #expect(claims.issuer == idp.issuer)
            #expect(claims.audience == ["public-app"])
            #expect(claims.nonce == request.nonce)
            #expect(claims.all["name"] == .string("Alice Example"))
            #expect(claims.all["email"] == .string("alice@example.com"))
            #expect(claims.all["groups"] == .array([.string("staff"), .string("admins")]))
            #expect(claims.all["preferred_username"] == .string("alice"))
            let sid = try #require(claims.all["sid"]?.stringValue)
            let authTime = try #require(claims.authTime)
            #expect(abs(authTime.date.timeIntervalSinceNow) < 30)
            #expect(claims.accessTokenHash != nil)
            // The session cookie is random, HttpOnly, SameSite=Lax, and is not the public sid.
            let cookie = try #require(await browser.cookies["ssokit_devidp_session"])
            #expect(cookie.count == 43)
            #expect(cookie != sid)

            let info = try await party.userInfo(for: login)
            #expect(info["sub"] == .string("user-alice"))
            #expect(info["email_verified"] == .bool(true))

            let refreshed = try await party.refresh(login.tokens, previousClaims: claims)
            #expect(refreshed.tokens.refreshToken != nil)
            #expect(refreshed.tokens.refreshToken != login.tokens.refreshToken, "rotation: a new refresh token")
            #expect(refreshed.tokens.accessToken != login.tokens.accessToken)
            #expect(refreshed.claims.all["sid"] == .string(sid))
            #expect(refreshed.claims.authTime == authTime, "OIDC Core §12.2: auth_time is the original one")
            #expect(refreshed.claims.nonce == nil)

            try await party.revoke(refreshed.tokens)
            await #expect(throws: OIDCError(.invalidGrant, "")) {
                _ = try await party.refresh(refreshed.tokens, previousClaims: claims)
            }
            #expect(try await idp.userInfo(refreshed.tokens.accessToken).status == 401)
        }
    }

    @Test(arguments: ["basic-app", "post-app", "jwt-app"])
    func confidentialClientsLogIn(_ clientID: String) async throws {
        let authentication: ClientAuthentication
        switch clientID {
        case "basic-app": authentication = .clientSecretBasic("basic-secret")
        case "post-app": authentication = .clientSecretPost("post-secret")
        default:
            authentication = .privateKeyJWT(
                PrivateKeyClientAssertionSigner(p256: DevIdPTestValues.clientKey, keyID: DevIdPTestValues.clientKeyID))
        }
        try await DevIdPHarness.with { idp in
            let party = idp.party(clientID, authentication)
            let request = try await party.authorizationRequest(redirectURI: "http://127.0.0.1:40124/callback")
            let login = try await party.completeLogin(
                callbackQuery: try await callback(idp, idp.browser(), request), request: request)
            #expect(login.claims.audience == [clientID])
            let refreshed = try await party.refresh(login.tokens, previousClaims: login.claims)
            #expect(refreshed.tokens.refreshToken != login.tokens.refreshToken)
            try await party.revoke(refreshed.tokens)
        }
    }

    @Test func idTokenIsRS256WithTheJWKSKey() async throws {
        try await DevIdPHarness.with { idp in
            let pkce = PKCE()
            let code = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce))
            let tokens = try await idp.exchange(code, verifier: pkce.verifier)
            #expect(tokens.status == 200)
            #expect(tokens.headers[.cacheControl] == "no-store")
            #expect(tokens.json["token_type"] == .string("Bearer"))
            #expect(tokens.json["expires_in"]?.int64Value == 3600)
            let idToken = try #require(tokens.json["id_token"]?.stringValue)
            let header = try #require(
                Base64URL.decode(String(idToken.split(separator: ".")[0])).flatMap {
                    try? JSONParser().parse($0).objectValue
                })
            #expect(header["alg"] == .string("RS256"))
            #expect(header["kid"] == .string(try DevIdPTestValues.keys.get().oidcKeyID))
            let jwks = try await idp.browser().get(idp.issuer + "/jwks")
            let keys = try JSONWebKeySet(jsonBytes: Array(jwks.body.utf8))
            #expect(keys.keys.count == 1)
            #expect(keys.keys.first?.keyID == (try DevIdPTestValues.keys.get().oidcKeyID))
        }
    }

    @Test func sessionAnswersWithoutTheFormUnlessPromptLoginOrMaxAge() async throws {
        let clock = AdjustableClock(start: Date())
        try await DevIdPHarness.with(clock: clock) { idp in
            let browser = idp.browser()
            _ = try await idp.code(browser, url: idp.authorizationURL(pkce: PKCE()))
            let again = try await browser.get(idp.authorizationURL(pkce: PKCE()))
            #expect(again.status == 302, "single sign-on: the session answers")
            #expect(again.locationQuery["code"] != nil)
            let forced = try await browser.get(idp.authorizationURL(pkce: PKCE(), extra: [("prompt", "login")]))
            #expect(forced.isLoginForm)
            clock.advance(120)
            let stale = try await browser.get(idp.authorizationURL(pkce: PKCE(), extra: [("max_age", "60")]))
            #expect(stale.isLoginForm, "auth_time is older than max_age")
            let fresh = try await browser.get(idp.authorizationURL(pkce: PKCE(), extra: [("max_age", "600")]))
            #expect(fresh.status == 302)
            let silent = try await idp.browser().get(idp.authorizationURL(pkce: PKCE(), extra: [("prompt", "none")]))
            #expect(silent.locationQuery["error"] == "login_required")
            let silentWithSession = try await browser.get(
                idp.authorizationURL(pkce: PKCE(), extra: [("prompt", "none")]))
            #expect(silentWithSession.locationQuery["code"] != nil)
            clock.advance(8 * 3600)
            #expect(try await browser.get(idp.authorizationURL(pkce: PKCE())).isLoginForm, "the session expired")
        }
    }

    @Test func discoveryDescribesTheProvider() async throws {
        try await DevIdPHarness.with { idp in
            let page = try await idp.browser().get(idp.issuer + "/.well-known/openid-configuration")
            let metadata = try ProviderMetadata(jsonBytes: Array(page.body.utf8), configuredIssuer: idp.issuer)
            #expect(metadata.authorizationResponseIssuerParameterSupported)
            #expect(metadata.codeChallengeMethodsSupported == ["S256"])
            #expect(metadata.idTokenSigningAlgorithmsSupported == ["RS256"])
            #expect(
                Set(metadata.tokenEndpointAuthMethodsSupported ?? [])
                    == ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"])
            #expect(metadata.revocationEndpoint?.absoluteString == idp.issuer + "/revoke")
            #expect(metadata.endSessionEndpoint?.absoluteString == idp.issuer + "/logout")
        }
    }
}
