import Foundation
import Testing

/// `ssokit oidc login`, `refresh`, `logout` and `verify-id-token` against oidc-provider-mock on 127.0.0.1,
/// with a scripted browser that signs in and follows the redirects.
@Suite(.serialized)
struct OIDCLoginEndToEndTests {
    let cache: URL
    let browser: String

    init() throws {
        cache = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-e2e-\(UUID().uuidString)")
        browser = MockProvider.python + " " + MockProvider.peerDirectory.appendingPathComponent("browser.py").path
    }

    private func ssokit(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(MockProvider.ssokit, arguments, environment: environment, timeout: 120)
    }

    private func common(_ issuer: String) -> [String] {
        [
            "--issuer", issuer, "--client-id", "ssokit-e2e", "--client-secret", "e2e-secret", "--cache", cache.path,
            "--app", "com.example.mail",
        ]
    }

    @Test func loginRefreshVerifyLogout() throws {
        let provider = try MockProvider()
        defer { provider.stop() }

        let login = try ssokit(
            ["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--userinfo", "--json"])
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        let loginJSON = try #require(login.json)
        let claims = try #require(loginJSON["id_token_claims"] as? [String: Any])
        #expect(claims["sub"] as? String == "alice@example.com")
        #expect(claims["iss"] as? String == provider.issuer)
        #expect(loginJSON["token_type"] as? String == "Bearer")
        #expect(loginJSON["has_refresh_token"] as? Bool == true)
        #expect((loginJSON["access_token_expires_at"] as? Int ?? 0) > Int(Date().timeIntervalSince1970))
        #expect((loginJSON["userinfo"] as? [String: Any])?["sub"] as? String == "alice@example.com")

        // The cache holds the session privately: folder 0700, files 0600, and never a token on stdout.
        let folderMode = try FileManager.default.attributesOfItem(atPath: cache.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.count == 1)
        let file = cache.appendingPathComponent(try #require(files.first))
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        let stored = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let idToken = try #require(stored["id_token"] as? String)
        let accessToken = try #require(stored["access_token"] as? String)
        #expect(!login.stdout.contains(accessToken))

        // The ID token verifies through discovery and the provider's JWKS over HTTP.
        let verify = try ssokit(
            ["oidc", "verify-id-token", idToken, "--issuer", provider.issuer, "--client-id", "ssokit-e2e"])
        #expect(verify.status == 0, "verify failed: \(verify.stdout)")
        #expect(verify.json?["sub"] as? String == "alice@example.com")
        let wrongAudience = try ssokit(
            ["oidc", "verify-id-token", idToken, "--issuer", provider.issuer, "--client-id", "someone-else"])
        #expect(wrongAudience.status == 1)
        #expect(wrongAudience.json?["error"] as? String == "audience_mismatch")

        let refresh = try ssokit(["oidc", "refresh"] + common(provider.issuer) + ["--json"])
        #expect(refresh.status == 0, "refresh failed: \(refresh.stdout) \(refresh.stderr)")
        #expect((refresh.json?["id_token_claims"] as? [String: Any])?["sub"] as? String == "alice@example.com")
        #expect(refresh.json?["has_refresh_token"] as? Bool == true)
        let refreshed = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(refreshed["access_token"] as? String != accessToken, "refresh must store the new access token")

        let logout = try ssokit(["oidc", "logout"] + common(provider.issuer))
        #expect(logout.status == 0)
        #expect(logout.json?["logged_out"] as? Bool == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty)

        let afterLogout = try ssokit(["oidc", "refresh"] + common(provider.issuer))
        #expect(afterLogout.status == 1)
        #expect(afterLogout.json?["error"] as? String == "not_logged_in")
        try? FileManager.default.removeItem(at: cache)
    }

    @Test func deniedLoginIsATypedFailure() throws {
        let provider = try MockProvider()
        defer { provider.stop() }
        let login = try ssokit(
            ["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json"],
            environment: ["E2E_ACTION": "deny"])
        #expect(login.status == 1)
        #expect(login.json?["error"] as? String == "access_denied")
        try? FileManager.default.removeItem(at: cache)
    }

    @Test func corruptedCacheFileIsATypedFailure() throws {
        let provider = try MockProvider()
        defer { provider.stop() }
        let login = try ssokit(
            ["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json"])
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        let file = cache.appendingPathComponent(try #require(files.first))
        try Data("{not json".utf8).write(to: file)
        let refresh = try ssokit(["oidc", "refresh"] + common(provider.issuer))
        #expect(refresh.status == 1)
        #expect(refresh.json?["error"] as? String == "cache_corrupt")
        try? FileManager.default.removeItem(at: cache)
    }

    @Test func wrongClientSecretIsInvalidClient() throws {
        let provider = try MockProvider()
        defer { provider.stop() }
        let arguments = (["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json"])
            .map { $0 == "e2e-secret" ? "wrong-secret" : $0 }
        let login = try ssokit(arguments)
        #expect(login.status == 1)
        #expect(login.json?["error"] as? String == "invalid_client")
        try? FileManager.default.removeItem(at: cache)
    }

    @Test func plainHTTPIssuerOffLoopbackIsRefused() throws {
        let login = try ssokit(
            [
                "oidc", "login", "--issuer", "http://idp.example.com", "--client-id", "x", "--cache", cache.path,
                "--browser-command", "/bin/true", "--timeout", "5",
            ])
        #expect(login.status == 1)
        #expect(login.json?["error"] as? String == "insecure_url")
    }
}
