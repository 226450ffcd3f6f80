import Crypto
import Foundation
import PostgresNIO
import PostgresTestSupport
import SSOKitCore
import Testing

/// `ssokit oidc login`, `refresh`, `logout` and `verify-id-token` against oidc-provider-mock on 127.0.0.1,
/// with a scripted browser that signs in and follows the redirects.
@Suite(.serialized)
struct OIDCLoginEndToEndTests {
    let cache: URL
    /// `$XDG_CONFIG_HOME` of the runs: where the cache key lives, outside the cache folder.
    let config: URL
    let browser: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-e2e-\(UUID().uuidString)")
        cache = base.appendingPathComponent("cache")
        config = base.appendingPathComponent("config")
        browser = MockProvider.python + " " + MockProvider.peerDirectory.appendingPathComponent("browser.py").path
    }

    private func ssokit(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        var merged = ["XDG_CONFIG_HOME": config.path]
        for (name, value) in environment { merged[name] = value }
        return try await ProcessRunner.run(MockProvider.ssokit, arguments, environment: merged, timeout: 120)
    }

    private func show(_ issuer: String, reveal: Bool = true, environment: [String: String] = [:]) async throws
        -> ProcessResult
    {
        try await ssokit(
            [
                "cache", "show", "--issuer", issuer, "--client-id", "ssokit-e2e", "--cache", cache.path, "--app",
                "com.example.mail",
            ] + (reveal ? ["--reveal"] : []), environment: environment)
    }

    /// Every byte of the cache folder (database, WAL).
    private func cacheBytes() throws -> Data {
        var bytes = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: cache.path) {
            bytes += try Data(contentsOf: cache.appendingPathComponent(name))
        }
        return bytes
    }

    private func common(_ issuer: String) -> [String] {
        [
            "--issuer", issuer, "--client-id", "ssokit-e2e", "--client-secret", "e2e-secret", "--cache", cache.path,
            "--app", "com.example.mail",
        ]
    }

    @Test func loginRefreshVerifyLogout() async throws {
        let provider = try await MockProvider()
        defer { provider.stop() }

        let login = try await ssokit(
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

        // The cache holds the session privately: folder 0700, SQLite files 0600, tokens sealed, none on stdout.
        let folderMode = try FileManager.default.attributesOfItem(atPath: cache.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.contains("cache.sqlite"))
        for name in files {
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: cache.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name) must be 0600")
        }
        let keyMode =
            try FileManager.default.attributesOfItem(
                atPath: config.appendingPathComponent("ssokit/cache.key").path)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        let hidden = try await show(provider.issuer, reveal: false)
        #expect(hidden.status == 0, "cache show failed: \(hidden.stdout)")
        #expect(hidden.json?["access_token"] == nil)
        #expect(hidden.json?["has_refresh_token"] as? Bool == true)
        let shown = try await show(provider.issuer)
        let idToken = try #require(shown.json?["id_token"] as? String)
        let accessToken = try #require(shown.json?["access_token"] as? String)
        let refreshToken = try #require(shown.json?["refresh_token"] as? String)
        #expect(!login.stdout.contains(accessToken))
        let raw = try cacheBytes()
        for token in [accessToken, refreshToken, idToken] { #expect(raw.range(of: Data(token.utf8)) == nil) }

        // A copy of the cache folder alone (another config, so another key) reveals nothing.
        let copy = try await show(provider.issuer, environment: ["XDG_CONFIG_HOME": config.path + "-other"])
        #expect(copy.status == 1)
        #expect(copy.json?["error"] as? String == "entry_unreadable")
        #expect(!copy.stdout.contains(accessToken))

        // The ID token verifies through discovery and the provider's JWKS over HTTP.
        let verify = try await ssokit(
            ["oidc", "verify-id-token", idToken, "--issuer", provider.issuer, "--client-id", "ssokit-e2e"])
        #expect(verify.status == 0, "verify failed: \(verify.stdout)")
        #expect(verify.json?["sub"] as? String == "alice@example.com")
        let wrongAudience = try await ssokit(
            ["oidc", "verify-id-token", idToken, "--issuer", provider.issuer, "--client-id", "someone-else"])
        #expect(wrongAudience.status == 1)
        #expect(wrongAudience.json?["error"] as? String == "audience_mismatch")

        let refresh = try await ssokit(["oidc", "refresh"] + common(provider.issuer) + ["--json"])
        #expect(refresh.status == 0, "refresh failed: \(refresh.stdout) \(refresh.stderr)")
        #expect((refresh.json?["id_token_claims"] as? [String: Any])?["sub"] as? String == "alice@example.com")
        #expect(refresh.json?["has_refresh_token"] as? Bool == true)
        let refreshed = try await show(provider.issuer)
        #expect(refreshed.json?["access_token"] as? String != accessToken, "refresh must store the new access token")
        #expect(refreshed.json?["id_token"] as? String != nil, "the ID token is kept across refreshes")
        let list = try await ssokit(["cache", "list", "--cache", cache.path, "--app", "com.example.mail"])
        #expect((list.json?["entries"] as? [Any])?.count == 1)
        #expect(!list.stdout.contains(accessToken))
        let otherApp = try await ssokit(["cache", "list", "--cache", cache.path, "--app", "com.example.other"])
        #expect((otherApp.json?["entries"] as? [Any])?.count == 0)

        let logout = try await ssokit(["oidc", "logout"] + common(provider.issuer))
        #expect(logout.status == 0)
        #expect(logout.json?["logged_out"] as? Bool == true)
        let afterList = try await ssokit(["cache", "list", "--cache", cache.path, "--app", "com.example.mail"])
        #expect((afterList.json?["entries"] as? [Any])?.count == 0)

        let afterLogout = try await ssokit(["oidc", "refresh"] + common(provider.issuer))
        #expect(afterLogout.status == 1)
        #expect(afterLogout.json?["error"] as? String == "not_logged_in")
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func deniedLoginIsATypedFailure() async throws {
        let provider = try await MockProvider()
        defer { provider.stop() }
        let login = try await ssokit(
            ["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json"],
            environment: ["E2E_ACTION": "deny"])
        #expect(login.status == 1)
        #expect(login.json?["error"] as? String == "access_denied")
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func cacheReadWithAnotherKeyIsATypedFailure() async throws {
        let provider = try await MockProvider()
        defer { provider.stop() }
        let login = try await ssokit(
            ["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json"])
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        // Replace the key file: the sealed entry no longer opens, and refresh says so instead of crashing.
        try Data("\(Data(repeating: 7, count: 32).base64EncodedString())\n".utf8).write(
            to: config.appendingPathComponent("ssokit/cache.key"))
        let refresh = try await ssokit(["oidc", "refresh"] + common(provider.issuer))
        #expect(refresh.status == 1)
        #expect(refresh.json?["error"] as? String == "entry_unreadable")
        let list = try await ssokit(["cache", "list", "--cache", cache.path, "--app", "com.example.mail"])
        #expect(list.json?["unreadable"] as? Int == 1)
        // Logout still forgets the unreadable entry.
        let logout = try await ssokit(["oidc", "logout"] + common(provider.issuer))
        #expect(logout.json?["logged_out"] as? Bool == true)
        let after = try await ssokit(["cache", "list", "--cache", cache.path, "--app", "com.example.mail"])
        #expect(after.json?["unreadable"] as? Int == 0)
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func twoRefreshesAtOnceShareTheCacheFile() async throws {
        let provider = try await MockProvider()
        defer { provider.stop() }
        let login = try await ssokit(
            ["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json"])
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        let arguments = ["oidc", "refresh"] + common(provider.issuer) + ["--json"]
        async let first = Task.detached { try await ssokit(arguments) }.value
        async let second = Task.detached { try await ssokit(arguments) }.value
        let results = try await [first, second]
        for result in results { #expect(result.status == 0, "refresh failed: \(result.stdout) \(result.stderr)") }
        var tokens: Set<String> = []
        for _ in results {
            tokens.insert(try #require(try await show(provider.issuer).json?["access_token"] as? String))
        }
        #expect(tokens.count == 1)
        let list = try await ssokit(["cache", "list", "--cache", cache.path, "--app", "com.example.mail"])
        #expect((list.json?["entries"] as? [Any])?.count == 1)
        #expect(list.json?["unreadable"] as? Int == 0)
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func sessionOnPostgres() async throws {
        let provider = try await MockProvider()
        defer { provider.stop() }
        try await PostgresTestServer.withDatabase { url in
            let client = [
                "--issuer", provider.issuer, "--client-id", "ssokit-e2e", "--client-secret", "e2e-secret", "--postgres",
                url, "--app", "com.example.mail",
            ]
            let login = try await ssokit(["oidc", "login"] + client + ["--browser-command", browser, "--json"])
            #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
            let show = [
                "cache", "show", "--issuer", provider.issuer, "--client-id", "ssokit-e2e", "--postgres", url, "--app",
                "com.example.mail", "--reveal",
            ]
            let before = try await #require(try ssokit(show).json?["access_token"] as? String)
            // Two refreshes at once, as two hosts sharing the database would run them.
            let arguments = ["oidc", "refresh"] + client + ["--json"]
            async let first = Task.detached { try await ssokit(arguments) }.value
            async let second = Task.detached { try await ssokit(arguments) }.value
            for result in try await [first, second] {
                #expect(result.status == 0, "refresh failed: \(result.stdout) \(result.stderr)")
            }
            let after = try await #require(try ssokit(show).json?["access_token"] as? String)
            #expect(after != before)
            // The rows in PostgreSQL hold no token.
            let rows = try await PostgresTestServer.execute(url, ["SELECT sealed FROM ssokit_entries"])
            #expect(rows.count == 1)
            for row in rows {
                let sealed = try row.decode(ByteBuffer.self)
                #expect(Data(sealed.readableBytesView).range(of: Data(after.utf8)) == nil)
            }
            let rights = try await ssokit(
                ["rights", "create", "pg.device", "--postgres", url], environment: ["SSOKIT_PASSPHRASE": "pw"])
            #expect(rights.status == 0, "rights create failed: \(rights.stdout) \(rights.stderr)")
            let listed = try await ssokit(["rights", "list", "--postgres", url])
            #expect((listed.json?["rights"] as? [[String: Any]])?.first?["identifier"] as? String == "pg.device")
            let logout = try await ssokit(["oidc", "logout"] + client)
            #expect(logout.json?["logged_out"] as? Bool == true)
            let list = try await ssokit(["cache", "list", "--postgres", url, "--app", "com.example.mail"])
            #expect((list.json?["entries"] as? [Any])?.count == 0)
        }
    }

    @Test func unreachablePostgresIsStoreUnavailable() async throws {
        let result = try await ssokit(["cache", "list", "--postgres", "postgres://nobody:secret-pw@127.0.0.1:1/none"])
        #expect(result.status == 1)
        #expect(result.json?["error"] as? String == "store_unavailable")
        #expect(!result.stdout.contains("secret-pw"))
        let remote = try await ssokit([
            "cache", "list", "--postgres", "postgres://u:pw@db.example.com/x?sslmode=disable",
        ])
        #expect(remote.json?["error"] as? String == "store_unavailable")
    }

    @Test func malformedKeyFileAndUsageErrors() async throws {
        let folder = config.appendingPathComponent("ssokit")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a key\n".utf8).write(to: folder.appendingPathComponent("cache.key"))
        // Private, as key files must be (a looser mode is insecure_key_file, see OIDCLocalAttackerEndToEndTests).
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent("cache.key").path)
        let list = try await ssokit(["cache", "list", "--cache", cache.path])
        #expect(list.status == 1)
        #expect(list.json?["error"] as? String == "invalid_key")
        let both = try await ssokit(["cache", "list", "--cache", cache.path, "--postgres", "postgres://u@127.0.0.1/x"])
        #expect(both.status == 64)
        let purgeAll = try await ssokit(["cache", "purge", "--all", "--cache", cache.path])
        #expect(purgeAll.status == 64)
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func protectedCacheNeedsThePassphrase() async throws {
        let provider = try await MockProvider()
        defer { provider.stop() }
        let passphrase = ["SSOKIT_PASSPHRASE": "e2e passphrase"]
        let login = try await ssokit(
            ["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json", "--protect"],
            environment: passphrase)
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        // Without the passphrase (the plain key file) the entry does not open.
        let plain = try await show(provider.issuer)
        #expect(plain.json?["error"] as? String == "entry_unreadable")
        let wrong = try await ssokit(
            ["oidc", "refresh"] + common(provider.issuer) + ["--protect"],
            environment: ["SSOKIT_PASSPHRASE": "not it"])
        #expect(wrong.status == 1)
        #expect(wrong.json?["error"] as? String == "authorization_denied")
        let refresh = try await ssokit(
            ["oidc", "refresh"] + common(provider.issuer) + ["--protect", "--json"], environment: passphrase)
        #expect(refresh.status == 0, "refresh failed: \(refresh.stdout) \(refresh.stderr)")
        let rights = try await ssokit(["rights", "list", "--cache", cache.path])
        let listed = try #require(rights.json?["rights"] as? [[String: Any]])
        #expect(listed.first?["identifier"] as? String == "ssokit.cache-key")
        #expect(listed.first?["failed_attempts"] as? Int == 0)
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func rightsCommandsSignAChallenge() async throws {
        let passphrase = ["SSOKIT_PASSPHRASE": "device pass"]
        let store = ["--cache", cache.path]
        let create = try await ssokit(["rights", "create", "com.example.device"] + store, environment: passphrase)
        #expect(create.status == 0, "create failed: \(create.stdout) \(create.stderr)")
        let duplicate = try await ssokit(["rights", "create", "com.example.device"] + store, environment: passphrase)
        #expect(duplicate.json?["error"] as? String == "already_exists")
        let challenge = "c2VydmVyLWNoYWxsZW5nZS0xMjM"
        let denied = try await ssokit(
            ["rights", "authorize", "com.example.device", "--challenge", challenge] + store,
            environment: ["SSOKIT_PASSPHRASE": "wrong"])
        #expect(denied.json?["error"] as? String == "authorization_denied")
        #expect(denied.json?["signature"] == nil)
        let signed = try await ssokit(
            ["rights", "authorize", "com.example.device", "--challenge", challenge] + store, environment: passphrase)
        #expect(signed.status == 0, "authorize failed: \(signed.stdout) \(signed.stderr)")
        #expect(signed.json?["public_key_pem"] as? String == create.json?["public_key_pem"] as? String)
        // The server side: verify with the exported public key only.
        let pem = try #require(create.json?["public_key_pem"] as? String)
        let signature = try #require((signed.json?["signature"] as? String).flatMap { Base64URL.decode($0) })
        let key = try P256.Signing.PublicKey(pemRepresentation: pem)
        let challengeBytes = Array("ssokit-right-challenge-v1".utf8) + [0] + (try #require(Base64URL.decode(challenge)))
        #expect(
            key.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: challengeBytes))
        #expect(!key.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: [1, 2, 3]))
        let delete = try await ssokit(["rights", "delete", "com.example.device"] + store)
        #expect(delete.status == 0)
        let gone = try await ssokit(["rights", "delete", "com.example.device"] + store)
        #expect(gone.json?["error"] as? String == "not_found")
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func wrongClientSecretIsInvalidClient() async throws {
        let provider = try await MockProvider()
        defer { provider.stop() }
        let arguments = (["oidc", "login"] + common(provider.issuer) + ["--browser-command", browser, "--json"])
            .map { $0 == "e2e-secret" ? "wrong-secret" : $0 }
        let login = try await ssokit(arguments)
        #expect(login.status == 1)
        #expect(login.json?["error"] as? String == "invalid_client")
        try? FileManager.default.removeItem(at: cache.deletingLastPathComponent())
    }

    @Test func plainHTTPIssuerOffLoopbackIsRefused() async throws {
        let login = try await ssokit(
            [
                "oidc", "login", "--issuer", "http://idp.example.com", "--client-id", "x", "--cache", cache.path,
                "--browser-command", "/bin/true", "--timeout", "5",
            ])
        #expect(login.status == 1)
        #expect(login.json?["error"] as? String == "insecure_url")
    }
}
