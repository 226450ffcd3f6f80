import Foundation
import Testing

/// `ssokit oidc logout` against oidc-provider-mock with a revocation endpoint (op.py --revocation): the local
/// session always ends, whatever the provider answers, and the provider is asked to revoke as the client.
@Suite(.serialized)
struct OIDCLogoutEndToEndTests {
    /// Logs in against a provider started with `--revocation mode` and returns both.
    static func loggedIn(revocation mode: String) async throws -> (MockProvider, CLIWorkspace) {
        let provider = try await MockProvider(extraArguments: ["--revocation", mode, "--revocation-hang-seconds", "60"])
        let work = try CLIWorkspace()
        let login = try await work.login(provider.issuer)
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        return (provider, work)
    }

    /// The provider's log of revocation requests (op.py's /test/revocations).
    static func revocations(_ provider: MockProvider) async throws -> [[String: Any]] {
        try await HTTPProbe.send(provider.issuer + "/test/revocations").body as? [[String: Any]] ?? []
    }

    /// The next refresh after a logout fails with the contract's JSON error: there is no session left.
    static func expectNoSession(_ work: CLIWorkspace, _ issuer: String) async throws {
        let refresh = try await work.ssokit(
            ["oidc", "refresh"] + work.session(issuer) + ["--client-secret", work.secret])
        #expect(refresh.status == 1)
        #expect(refresh.json?["error"] as? String == "not_logged_in", "\(refresh.stdout)")
    }

    @Test func logoutWithoutClientAuthenticationStillEndsTheSession() async throws {
        let (provider, work) = try await Self.loggedIn(revocation: "client-auth")
        defer {
            provider.stop()
            work.cleanUp()
        }
        // The contract's form, no secret: the provider refuses the unauthenticated revocation with 401.
        let logout = try await work.ssokit(["oidc", "logout"] + work.session(provider.issuer))
        #expect(logout.status == 0, "logout failed: \(logout.stdout) \(logout.stderr)")
        #expect(logout.json?["logged_out"] as? Bool == true)
        #expect(logout.json?["revoked"] as? Bool == false)
        #expect(logout.json?["revocation_error"] as? String == "invalid_client")
        try await Self.expectNoSession(work, provider.issuer)
        let log = try await Self.revocations(provider)
        #expect(log.count == 1)
        #expect(log.first?["authenticated"] as? Bool == false)
        #expect(log.first?["status"] as? Int == 401)
    }

    @Test func logoutWithTheClientSecretRevokesTheRefreshTokenThenTheAccessToken() async throws {
        let (provider, work) = try await Self.loggedIn(revocation: "client-auth")
        defer {
            provider.stop()
            work.cleanUp()
        }
        let tokens = try await work.revealed(provider.issuer)
        let refreshToken = try #require(tokens["refresh_token"] as? String)
        let secretFile = try work.file("client-secret", work.secret + "\n")
        let logout = try await work.ssokit(
            ["oidc", "logout"] + work.session(provider.issuer) + ["--client-secret-file", secretFile])
        #expect(logout.status == 0, "logout failed: \(logout.stdout) \(logout.stderr)")
        #expect(logout.json?["logged_out"] as? Bool == true)
        #expect(logout.json?["revoked"] as? Bool == true)
        #expect(logout.json?["revocation_error"] is NSNull)
        let log = try await Self.revocations(provider)
        #expect(log.map { $0["token_type_hint"] as? String } == ["refresh_token", "access_token"])
        #expect(log.map { $0["revoked"] as? String } == ["refresh_token", "access_token"])
        #expect(log.allSatisfy { $0["authenticated"] as? Bool == true })
        // The provider no longer honours the refresh token.
        let reuse = try await HTTPProbe.send(
            provider.issuer + "/oauth2/token", form: ["grant_type": "refresh_token", "refresh_token": refreshToken],
            basic: (CLIWorkspace.client, work.secret))
        #expect(reuse.status == 400)
        #expect((reuse.body as? [String: Any])?["error"] as? String == "invalid_grant")
        try await Self.expectNoSession(work, provider.issuer)
        #expect(!logout.stdout.contains(refreshToken))
    }

    @Test(
        "whatever the revocation endpoint does, the session ends",
        arguments: [
            ("error-500", "unexpected_status"), ("hang", "timed_out"), ("off", "unsupported_feature"),
            // The HTTP client retries a refused connection until its own deadline: the logout's comes first.
            ("unreachable", "timed_out"),
        ])
    func failingRevocationStillEndsTheSession(_ mode: String, _ reason: String) async throws {
        let (provider, work) = try await Self.loggedIn(revocation: mode == "unreachable" ? "off" : mode)
        defer {
            provider.stop()
            work.cleanUp()
        }
        if mode == "unreachable" { provider.stop() }
        let started = Date()
        let logout = try await work.ssokit(
            ["oidc", "logout"] + work.session(provider.issuer) + ["--client-secret", work.secret, "--timeout", "2"])
        #expect(Date().timeIntervalSince(started) < 30, "the revocation deadline bounds the logout")
        #expect(logout.status == 0, "logout failed: \(logout.stdout) \(logout.stderr)")
        #expect(logout.json?["logged_out"] as? Bool == true)
        #expect(logout.json?["revoked"] as? Bool == false)
        #expect(logout.json?["revocation_error"] as? String == reason)
        try await Self.expectNoSession(work, provider.issuer)
    }

    @Test func endSessionURLCarriesTheIDTokenHint() async throws {
        let (provider, work) = try await Self.loggedIn(revocation: "client-auth")
        defer {
            provider.stop()
            work.cleanUp()
        }
        let idToken = try await #require(try work.revealed(provider.issuer)["id_token"] as? String)
        let logout = try await work.ssokit(
            ["oidc", "logout"] + work.session(provider.issuer) + [
                "--client-secret", work.secret, "--end-session", "--post-logout-redirect-uri", "http://127.0.0.1:9/bye",
            ])
        #expect(logout.status == 0, "logout failed: \(logout.stdout) \(logout.stderr)")
        #expect(logout.json?["revoked"] as? Bool == true)
        let text = try #require(logout.json?["end_session_url"] as? String)
        let url = try #require(URLComponents(string: text))
        #expect(url.string?.hasPrefix(provider.issuer + "/oauth2/end_session?") == true)
        let query = Dictionary(
            (url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(query["id_token_hint"] == idToken)
        #expect(query["client_id"] == CLIWorkspace.client)
        #expect(query["post_logout_redirect_uri"] == "http://127.0.0.1:9/bye")
        // The provider's end-session page answers the URL with its confirmation form.
        await #expect(try HTTPProbe.send(url.string ?? "").status == 200)

        // Logged out already: nothing to end, nothing to revoke.
        let again = try await work.ssokit(["oidc", "logout"] + work.session(provider.issuer) + ["--end-session"])
        #expect(again.status == 0)
        #expect(again.json?["logged_out"] as? Bool == false)
        #expect(again.json?["revocation_error"] is NSNull)
    }

    @Test func endSessionOpensTheURLWithTheBrowserCommand() async throws {
        let (provider, work) = try await Self.loggedIn(revocation: "client-auth")
        defer {
            provider.stop()
            work.cleanUp()
        }
        let browserless = try await work.ssokit(
            ["oidc", "logout"] + work.session(provider.issuer) + [
                "--client-secret", work.secret, "--browser-command",
                "/bin/true",
            ])
        #expect(browserless.status == 64, "--browser-command needs --end-session")
        let opened = try await work.ssokit(
            ["oidc", "logout"] + work.session(provider.issuer) + [
                "--client-secret", work.secret, "--end-session", "--browser-command", "/bin/true",
            ])
        #expect(opened.status == 0, "logout failed: \(opened.stdout) \(opened.stderr)")
        #expect(opened.json?["end_session_opened"] as? Bool == true)
        #expect(opened.json?["end_session_url"] == nil, "the URL holds the ID token: not printed when opened")
    }
}
