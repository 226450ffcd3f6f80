import Crypto
import Foundation
import SSOKitCore
import Testing

/// `ssokit authorize` against oidc-provider-mock (`peer/op.py --session-lifetime`), logging in through the mock's
/// own form: login, SSO for a second app, silent refresh, an intercepted authorization request answered with a 302,
/// a Bearer challenge, logout, and an IdP session that expires or is revoked (resumed from another process).
@Suite(.serialized)
struct AdapterOIDCEndToEndTests {
    static let user = "alice@example.com"

    func workspace(_ provider: MockProvider) throws -> AdapterWorkspace {
        try AdapterWorkspace(payloads: [
            AdapterWorkspace.oidcPayload(
                "e2e.oidc", issuer: provider.issuer, routes: #""URLs": ["\#(provider.issuer)/oauth2/"]"#),
            AdapterWorkspace.oidcPayload(
                "e2e.api", issuer: provider.issuer, type: "Credential", routes: #""Hosts": ["api.e2e.test"]"#),
        ])
    }

    /// The mock's session counters.
    func sessions(_ provider: MockProvider) async throws -> [String: Int] {
        try await HTTPProbe.send(provider.issuer + "/test/sessions").body as? [String: Int] ?? [:]
    }

    @Test func loginSSORefreshInterceptChallengeAndLogout() async throws {
        let provider = try await MockProvider(extraArguments: [
            "--session-lifetime", "300", "--revocation", "client-auth",
        ])
        defer { provider.stop() }
        let adapter = try workspace(provider)
        defer { adapter.cleanUp() }
        let issuer = provider.issuer

        // login through the mock's form: the user name fills its one text input, "sub".
        let login = try await adapter.authorize(
            ["--app", "com.example.mail", "--operation", "login", issuer, "--username", Self.user, "--password-stdin"],
            password: "unused")
        try #require(login.status == 0 && login.result == "http_response", "\(login.stdout) \(login.stderr)")
        #expect(login.json?["status"] as? Int == 200)
        #expect(login.headers["Cache-Control"] == "no-store")
        let body = try #require(login.bodyObject)
        #expect(Set(body.keys) == ["access_token", "id_token", "token_type", "expires_in"])
        let accessToken = try #require(body["access_token"] as? String)
        #expect(login.headers["access_token"] == accessToken)
        let idToken = try #require(body["id_token"] as? String)
        let claims = try #require(
            Base64URL.decode(String(idToken.split(separator: ".")[1])).flatMap {
                try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
            })
        #expect(claims["sub"] as? String == Self.user && claims["iss"] as? String == issuer)
        await #expect(try sessions(provider)["form_logins"] == 1)

        // Another app: silently, with the IdP session cookie the adapter keeps.
        let calendar = try await adapter.authorize([
            "--app", "com.example.calendar", "--operation", "login", issuer, "--silent",
        ])
        #expect(calendar.result == "http_response", "\(calendar.stdout)")
        #expect(calendar.bodyObject?["access_token"] as? String != accessToken)
        await #expect(try sessions(provider) == ["active": 1, "form_logins": 1, "cookie_logins": 1])

        // refresh: the cached tokens, then after expiry a refresh grant.
        let cached = try await adapter.authorize([
            "--app", "com.example.mail", "--operation", "refresh", issuer, "--silent",
        ])
        #expect(cached.bodyObject?["access_token"] as? String == accessToken)
        let later = String(Int(Date().timeIntervalSince1970) + 4000)
        let refreshed = try await adapter.authorize(
            ["--app", "com.example.mail", "--operation", "refresh", issuer, "--silent", "--now", later])
        let newToken = try #require(refreshed.bodyObject?["access_token"] as? String, "\(refreshed.stdout)")
        #expect(newToken != accessToken)

        // A web app's own authorization request, intercepted: a compact 302 with the app's state and a code that
        // only the app's PKCE verifier redeems.
        let verifier = Base64URL.encode(Array(Data((0..<32).map { UInt8($0) })))
        let challenge = Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
        let webRedirect = "http://127.0.0.1:9/webapp/callback"
        let query = FormURLEncoding.encode([
            ("response_type", "code"), ("client_id", CLIWorkspace.client), ("redirect_uri", webRedirect),
            ("scope", "openid"), ("state", "web-state"), ("nonce", "web-nonce"), ("code_challenge", challenge),
            ("code_challenge_method", "S256"),
        ])
        let intercepted = try await adapter.authorize([
            "--app", "com.apple.Safari", "\(issuer)/oauth2/authorize?\(query)", "--silent",
        ])
        #expect(intercepted.json?["status"] as? Int == 302, "\(intercepted.stdout)")
        #expect(intercepted.json?["body"] is NSNull)
        #expect(Set(intercepted.headers.keys) == ["Location", "Cache-Control"])
        let location = try #require(intercepted.headers["Location"].flatMap(URLComponents.init(string:)))
        #expect(location.string?.hasPrefix(webRedirect) == true)
        let values = Dictionary(
            (location.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(values["state"] == "web-state")
        let exchange = try await HTTPProbe.send(
            issuer + "/oauth2/token",
            form: [
                "grant_type": "authorization_code", "code": values["code"] ?? "", "redirect_uri": webRedirect,
                "code_verifier": verifier,
            ], basic: (CLIWorkspace.client, CLIWorkspace.secret))
        #expect(exchange.status == 200, "\(exchange.body ?? "")")

        // A Bearer challenge from the Credential payload's host: the app's own access token.
        let bearer = try await adapter.authorize(
            [
                "--app", "com.example.mail", "https://api.e2e.test/v1/items", "--header",
                #"WWW-Authenticate: Bearer realm="api""#, "--silent",
            ])
        #expect(bearer.result == "authorization_headers", "\(bearer.stdout)")
        #expect(bearer.headers == ["Authorization": "Bearer \(newToken)"])
        let negotiate = try await adapter.authorize(
            [
                "--app", "com.example.mail", "https://api.e2e.test/v1/items", "--header", "WWW-Authenticate: Negotiate",
                "--silent",
            ])
        #expect(negotiate.status == 0 && negotiate.result == "do_not_handle")

        // logout: the session goes and is revoked at the provider; with end_session the IdP session goes too.
        let logout = try await adapter.authorize(["--app", "com.example.mail", "--operation", "logout", issuer])
        #expect(
            logout.bodyObject?["logged_out"] as? Bool == true && logout.bodyObject?["revoked"] as? Bool == true,
            "\(logout.stdout)")
        let revocations = try await HTTPProbe.send(issuer + "/test/revocations").body as? [[String: Any]] ?? []
        #expect(revocations.first?["revoked"] as? String == "refresh_token")
        let ended = try await adapter.authorize(
            ["--app", "com.example.calendar", "--operation", "logout", issuer, "--option", "end_session=true"])
        #expect(ended.bodyObject?["idp_session_ended"] as? Bool == true, "\(ended.stdout)")
        let afterwards = try await adapter.authorize(["--app", "com.example.mail", "--operation", "refresh", issuer])
        #expect(afterwards.status == 1 && afterwards.reason == "login_required", "\(afterwards.stdout)")
        #expect(afterwards.json?["error"].map { "\($0)" }?.contains(accessToken) == false)
    }

    @Test func anExpiredOrRevokedIdPSessionAsksAgainAndAnotherProcessResumes() async throws {
        let provider = try await MockProvider(extraArguments: ["--session-lifetime", "2"])
        defer { provider.stop() }
        let adapter = try workspace(provider)
        defer { adapter.cleanUp() }
        let issuer = provider.issuer
        let first = try await adapter.authorize(
            ["--app", "com.example.mail", "--operation", "login", issuer, "--username", Self.user, "--password-stdin"],
            password: "x")
        try #require(first.result == "http_response", "\(first.stdout) \(first.stderr)")

        // The mock forgets the session after 2 s: the next app's silent login becomes an interaction.
        try await Task.sleep(for: .milliseconds(2500))
        let pending = try await adapter.authorize([
            "--app", "com.example.notes", "--operation", "login", issuer, "--no-ui",
        ])
        #expect(pending.status == 0 && pending.result == "needs_interaction", "\(pending.stdout)")
        let interaction = try #require(pending.interaction)
        #expect(interaction["kind"] as? String == "credentials")
        #expect(interaction["fields"] as? [String] == ["sub"])
        let id = try #require(interaction["id"] as? String)

        // Another process, on the same store, resumes it; a second resume finds nothing.
        let resumed = try await adapter.authorize(
            ["--app", "com.example.notes", "--resume", id, "--username", Self.user, "--password-stdin"], password: "x")
        #expect(resumed.result == "http_response" && resumed.json?["status"] as? Int == 200, "\(resumed.stdout)")
        let twice = try await adapter.authorize(
            ["--app", "com.example.notes", "--resume", id, "--username", Self.user, "--password-stdin"], password: "x")
        #expect(twice.status == 1 && twice.reason == "interaction_expired", "\(twice.stdout)")

        // Revoked at the IdP while the cookie is still held: asked again, never answered with a wrong session.
        _ = try await HTTPProbe.send(issuer + "/test/sessions/revoke", form: [:])
        let revoked = try await adapter.authorize([
            "--app", "com.example.photos", "--operation", "login", issuer, "--silent",
        ])
        #expect(revoked.status == 1 && revoked.reason == "login_required", "\(revoked.stdout)")
    }

    @Test func aBrowserInteractionEndsAtTheLoopbackCallback() async throws {
        let provider = try await MockProvider(extraArguments: [])
        defer { provider.stop() }
        let port = try LoopbackPort.free()
        let adapter = try AdapterWorkspace(payloads: [
            AdapterWorkspace.oidcPayload(
                "e2e.oidc", issuer: provider.issuer, routes: #""URLs": ["\#(provider.issuer)/oauth2/"]"#,
                extra: #", "login_interaction": "browser""#
            ).replacingOccurrences(of: "127.0.0.1:8765/callback", with: "127.0.0.1:\(port)/callback")
        ])
        defer { adapter.cleanUp() }
        let browser = MockProvider.python + " " + MockProvider.peerDirectory.appendingPathComponent("browser.py").path
        let result = try await adapter.authorize([
            "--app", "com.example.mail", "--operation", "login", provider.issuer, "--browser-command", browser,
            "--timeout", "60",
        ])
        #expect(
            result.result == "http_response" && result.json?["status"] as? Int == 200,
            "\(result.stdout) \(result.stderr)")
    }
}
