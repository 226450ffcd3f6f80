import Crypto
import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

/// The token endpoint's refusals (RFC 6749 §5.2): codes, PKCE, rotation and reuse, client authentication.
@Suite struct TokenEndpointTests {
    @Test func wrongVerifierSpendsTheCode() async throws {
        try await DevIdPHarness.with { idp in
            let pkce = PKCE()
            let code = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce))
            let wrong = try await idp.exchange(code, verifier: PKCE().verifier)
            #expect(wrong.status == 400)
            #expect(wrong.json["error"] == .string("invalid_grant"), "RFC 7636 §4.6")
            let right = try await idp.exchange(code, verifier: pkce.verifier)
            #expect(right.json["error"] == .string("invalid_grant"), "the code was spent by the first attempt")
        }
    }

    @Test func reusedCodeRevokesWhatItGave() async throws {
        try await DevIdPHarness.with { idp in
            let pkce = PKCE()
            let code = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce))
            let first = try await idp.exchange(code, verifier: pkce.verifier)
            let access = try #require(first.json["access_token"]?.stringValue)
            let refresh = try #require(first.json["refresh_token"]?.stringValue)
            #expect(try await idp.userInfo(access).status == 200)
            let second = try await idp.exchange(code, verifier: pkce.verifier)
            #expect(second.json["error"] == .string("invalid_grant"))
            #expect(try await idp.userInfo(access).status == 401, "RFC 6749 §4.1.2: the tokens are revoked")
            #expect(try await idp.refresh(refresh).json["error"] == .string("invalid_grant"))
        }
    }

    @Test func codeIsBoundToClientAndRedirectURI() async throws {
        try await DevIdPHarness.with { idp in
            let pkce = PKCE()
            let code = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce))
            let otherClient = try await idp.exchange(code, verifier: pkce.verifier, clientID: "fixture-client")
            #expect(otherClient.json["error"] == .string("invalid_grant"))
            let second = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce))
            let otherRedirect = try await idp.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", second),
                    ("redirect_uri", "http://127.0.0.1:40001/callback"), ("code_verifier", pkce.verifier),
                    ("client_id", "public-app"),
                ])
            #expect(otherRedirect.json["error"] == .string("invalid_grant"))
        }
    }

    @Test func expiredCodeIsRefused() async throws {
        let clock = AdjustableClock(start: Date())
        try await DevIdPHarness.with(clock: clock) { idp in
            let pkce = PKCE()
            let code = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce))
            clock.advance(61)
            #expect(try await idp.exchange(code, verifier: pkce.verifier).json["error"] == .string("invalid_grant"))
        }
    }

    @Test func reusedRefreshTokenRevokesTheFamily() async throws {
        try await DevIdPHarness.with { idp in
            let pkce = PKCE()
            let code = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce))
            let tokens = try await idp.exchange(code, verifier: pkce.verifier)
            let first = try #require(tokens.json["refresh_token"]?.stringValue)
            let rotated = try await idp.refresh(first)
            #expect(rotated.status == 200)
            let second = try #require(rotated.json["refresh_token"]?.stringValue)
            let access = try #require(rotated.json["access_token"]?.stringValue)
            #expect(second != first)
            let reused = try await idp.refresh(first)
            #expect(reused.json["error"] == .string("invalid_grant"), "the rotated-away token")
            #expect(try await idp.refresh(second).json["error"] == .string("invalid_grant"), "the family is revoked")
            #expect(try await idp.userInfo(access).status == 401)
        }
    }

    @Test func refreshTokenOfAnotherClientOrWiderScopeIsRefused() async throws {
        try await DevIdPHarness.with { idp in
            let pkce = PKCE()
            let code = try await idp.code(idp.browser(), url: idp.authorizationURL(pkce: pkce, scope: "openid email"))
            let refresh = try #require(
                try await idp.exchange(code, verifier: pkce.verifier).json["refresh_token"]?.stringValue)
            let other = try await idp.refresh(refresh, clientID: "fixture-client")
            #expect(other.json["error"] == .string("invalid_grant"))
            let wider = try await idp.refresh(refresh, scope: "openid email profile")
            #expect(wider.json["error"] == .string("invalid_scope"))
            let narrower = try await idp.refresh(refresh, scope: "openid")
            #expect(narrower.status == 200, "the token survives refusals that were not its reuse")
            #expect(narrower.json["scope"] == .string("openid"))
        }
    }

    @Test func clientAuthenticationFailures() async throws {
        try await DevIdPHarness.with { idp in
            func basic(_ id: String, _ secret: String) -> (String, String) {
                ("Authorization", "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString())
            }
            let grant = [("grant_type", "refresh_token"), ("refresh_token", "x")]
            let wrongSecret = try await idp.post("/token", grant, headers: [basic("basic-app", "nope")])
            #expect(wrongSecret.status == 401)
            #expect(wrongSecret.json["error"] == .string("invalid_client"))
            #expect(wrongSecret.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true, "RFC 6749 §5.2")
            let postForBasic = try await idp.post(
                "/token", grant + [("client_id", "basic-app"), ("client_secret", "basic-secret")])
            #expect(postForBasic.json["error"] == .string("invalid_grant"), "a secret may travel in the form too")
            let basicForPost = try await idp.post("/token", grant, headers: [basic("post-app", "post-secret")])
            #expect(basicForPost.json["error"] == .string("invalid_grant"), "RFC 6749 §2.3.1: Basic is always accepted")
            let secretForJWT = try await idp.post("/token", grant, headers: [basic("jwt-app", "guess")])
            #expect(secretForJWT.json["error"] == .string("invalid_client"), "jwt-app authenticates by assertion only")
            let twoMethods = try await idp.post(
                "/token", grant + [("client_secret", "basic-secret")], headers: [basic("basic-app", "basic-secret")])
            #expect(twoMethods.json["error"] == .string("invalid_request"), "RFC 6749 §2.3")
            let unknown = try await idp.post("/token", grant + [("client_id", "nobody")])
            #expect(unknown.json["error"] == .string("invalid_client"))
            let anonymous = try await idp.post("/token", grant)
            #expect(anonymous.json["error"] == .string("invalid_client"))
            let publicWithSecret = try await idp.post(
                "/token", grant + [("client_id", "public-app"), ("client_secret", "guess")])
            #expect(publicWithSecret.json["error"] == .string("invalid_client"))
            let right = try await idp.post("/token", grant, headers: [basic("basic-app", "basic-secret")])
            #expect(right.json["error"] == .string("invalid_grant"), "authenticated, then the grant is checked")
            let unsupported = try await idp.post("/token", [("grant_type", "password"), ("client_id", "public-app")])
            #expect(unsupported.json["error"] == .string("unsupported_grant_type"))
            let noGrant = try await idp.post("/token", [("client_id", "public-app")])
            #expect(noGrant.json["error"] == .string("invalid_request"))
            let json = try await idp.browser().get(idp.issuer + "/token")
            #expect(json.status == 404, "only POST")
        }
    }

    /// A `private_key_jwt` assertion for `jwt-app`, signed by `key`.
    private func assertion(
        audience: String, lifetime: TimeInterval = 60, key: P256.Signing.PrivateKey = DevIdPTestValues.clientKey,
        jwtID: String = RandomToken.make(byteCount: 16)
    ) async throws -> String {
        let now = Date()
        return try await PrivateKeyClientAssertionSigner(p256: key, keyID: DevIdPTestValues.clientKeyID).sign(
            ClientAssertionClaims(
                clientID: "jwt-app", audience: audience, issuedAt: now, expiresAt: now.addingTimeInterval(lifetime),
                jwtID: jwtID))
    }

    @Test func privateKeyJWTFailures() async throws {
        try await DevIdPHarness.with { idp in
            let type = ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            let grant = [("grant_type", "refresh_token"), ("refresh_token", "x"), type]
            func send(_ assertion: String) async throws -> String? {
                try await idp.post("/token", grant + [("client_assertion", assertion)]).json["error"]?.stringValue
            }
            let valid = try await assertion(audience: idp.issuer + "/token")
            #expect(try await send(valid) == "invalid_grant", "authenticated")
            #expect(try await send(valid) == "invalid_client", "RFC 7523 §3: a jti is used once")
            #expect(
                try await send(try await assertion(audience: idp.issuer)) == "invalid_grant",
                "the issuer is an audience")
            #expect(try await send(try await assertion(audience: "https://elsewhere.example")) == "invalid_client")
            #expect(try await send(try await assertion(audience: idp.issuer, lifetime: 7200)) == "invalid_client")
            #expect(try await send(try await assertion(audience: idp.issuer, lifetime: -120)) == "invalid_client")
            #expect(
                try await send(try await assertion(audience: idp.issuer, key: P256.Signing.PrivateKey()))
                    == "invalid_client")
            let wrongType = try await idp.post(
                "/token",
                [
                    ("grant_type", "refresh_token"), ("refresh_token", "x"), ("client_assertion_type", "bearer"),
                    ("client_assertion", try await assertion(audience: idp.issuer)),
                ])
            #expect(wrongType.json["error"] == .string("invalid_client"))
            let revoke = try await idp.post(
                "/revoke",
                [("token", "x"), type, ("client_assertion", try await assertion(audience: idp.issuer + "/revoke"))])
            #expect(revoke.status == 200, "the revocation endpoint is an audience too")
        }
    }

    @Test func formBodyIsRequired() async throws {
        try await DevIdPHarness.with { idp in
            let json = try await idp.browser().post(
                idp.issuer + "/token", form: [("grant_type", "refresh_token")],
                headers: [("Content-Type", "application/json")])
            #expect(json.status == 400)
        }
    }
}
