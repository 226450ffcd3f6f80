import Crypto
import Foundation
import PostgresNIO
import PostgresTestSupport
import Testing

/// What another local user can see or reach: secrets on the command line, the loopback redirect listener, the
/// browser's environment, key files with loose modes (issue 10, item 12), and plain-http issuers off loopback.
@Suite(.serialized)
struct OIDCLocalAttackerEndToEndTests {
    static func mode(_ path: String, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    @Test func clientSecretFromAFileOrTheEnvironment() async throws {
        let provider = try await MockProvider()
        let work = try CLIWorkspace()
        defer {
            provider.stop()
            work.cleanUp()
        }
        let secretFile = try work.file("secret", work.secret + "\n")
        let login = try await work.login(provider.issuer, extra: ["--client-secret-file", secretFile])
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        let refresh = try await work.ssokit(
            ["oidc", "refresh"] + work.session(provider.issuer) + ["--json"],
            environment: ["SSOKIT_CLIENT_SECRET": work.secret])
        #expect(refresh.status == 0, "refresh failed: \(refresh.stdout) \(refresh.stderr)")
        let withoutSecret = try await work.ssokit(["oidc", "refresh"] + work.session(provider.issuer))
        #expect(withoutSecret.json?["error"] as? String == "invalid_client", "the environment was what authenticated")

        try Self.mode(secretFile, 0o644)
        let loose = try await work.ssokit(
            ["oidc", "refresh"] + work.session(provider.issuer) + ["--client-secret-file", secretFile])
        #expect(loose.status == 1)
        #expect(loose.json?["error"] as? String == "insecure_key_file")
        #expect((loose.json?["message"] as? String)?.contains("0644") == true)
        #expect(!loose.stdout.contains(work.secret))
        let both = try await work.ssokit(
            ["oidc", "refresh"] + work.session(provider.issuer) + [
                "--client-secret", work.secret, "--client-secret-file", secretFile,
            ])
        #expect(both.status == 64)
    }

    @Test func keyFilesWithALooseModeOrAnotherOwnerAreRefused() async throws {
        let work = try CLIWorkspace()
        defer { work.cleanUp() }
        let created = try await work.ssokit(["cache", "list", "--cache", work.cache.path])
        #expect(created.status == 0, "\(created.stdout) \(created.stderr)")
        for name in ["cache.key", "device.key"] {
            let path = work.config.appendingPathComponent("ssokit/\(name)").path
            for loose in [0o644, 0o640, 0o604, 0o660] {
                try Self.mode(path, loose)
                let refused = try await work.ssokit(["cache", "list", "--cache", work.cache.path])
                #expect(refused.status == 1, "\(name) at \(String(loose, radix: 8))")
                #expect(refused.json?["error"] as? String == "insecure_key_file")
                #expect((refused.json?["message"] as? String)?.contains(name) == true)
            }
            try Self.mode(path, 0o600)
            if geteuid() == 0 {
                // Root can hand the file to another user: a key someone else owns is refused too.
                #expect(chown(path, 65534, 65534) == 0)
                let foreign = try await work.ssokit(["cache", "list", "--cache", work.cache.path])
                #expect(foreign.json?["error"] as? String == "insecure_key_file")
                #expect((foreign.json?["message"] as? String)?.contains("65534") == true)
                #expect(chown(path, 0, 0) == 0)
            }
            await #expect(try work.ssokit(["cache", "list", "--cache", work.cache.path]).status == 0)
        }
        // A private_key_jwt key file open to others is refused before anything is sent.
        let keyFile = try work.file("client.pem", P256.Signing.PrivateKey().pemRepresentation, mode: 0o644)
        let login = try await work.ssokit(
            ["oidc", "login"] + work.session("http://127.0.0.1:1") + [
                "--client-auth", "private_key_jwt", "--client-key", keyFile, "--timeout", "5",
            ])
        #expect(login.status == 1)
        #expect(login.json?["error"] as? String == "insecure_key_file")
    }

    @Test func verifyIDTokenReadsTokensFromAFileOrStandardInput() async throws {
        let provider = try await MockProvider()
        let work = try CLIWorkspace()
        defer {
            provider.stop()
            work.cleanUp()
        }
        await #expect(try work.login(provider.issuer).status == 0)
        let tokens = try await work.revealed(provider.issuer)
        let idToken = try #require(tokens["id_token"] as? String)
        let accessToken = try #require(tokens["access_token"] as? String)
        let verify = ["oidc", "verify-id-token", "--issuer", provider.issuer, "--client-id", CLIWorkspace.client]
        let tokenFile = try work.file("id-token", idToken + "\n")
        let accessFile = try work.file("access-token", accessToken)

        let fromFile = try await work.ssokit(verify + ["--token-file", tokenFile, "--access-token-file", accessFile])
        #expect(fromFile.status == 0, "\(fromFile.stdout) \(fromFile.stderr)")
        #expect(fromFile.json?["sub"] as? String == "alice@example.com")
        let fromStdin = try await work.ssokit(verify + ["-"], input: Data((idToken + "\n").utf8))
        #expect(fromStdin.status == 0, "\(fromStdin.stdout) \(fromStdin.stderr)")
        let fileFromStdin = try await work.ssokit(
            verify + ["--token-file", "-", "--access-token-file", accessFile], input: Data(idToken.utf8))
        #expect(fileFromStdin.status == 0, "\(fileFromStdin.stdout) \(fileFromStdin.stderr)")
        // at_hash is checked against the access token read from the file.
        let wrongAccess = try work.file("wrong-access-token", "not-the-access-token")
        let mismatch = try await work.ssokit(verify + ["--token-file", tokenFile, "--access-token-file", wrongAccess])
        #expect(mismatch.json?["error"] as? String == "at_hash_mismatch")
        // The positional form still works, and the forms exclude each other.
        await #expect(try work.ssokit(verify + [idToken]).status == 0)
        await #expect(try work.ssokit(verify + [idToken, "--token-file", tokenFile]).status == 64)
        await #expect(try work.ssokit(verify).status == 64)
        await #expect(try work.ssokit(verify + ["-", "--access-token-file", "-"]).status == 64)
        let empty = try await work.ssokit(verify + ["-"], input: Data())
        #expect(empty.json?["error"] as? String == "malformed_token")
    }

    @Test func plainHTTPIssuerOffLoopbackIsRefusedWithAJWKSFile() async throws {
        let work = try CLIWorkspace()
        defer { work.cleanUp() }
        let fixtures = MockProvider.packageRoot.appendingPathComponent("fixtures/oidc")
        for name in ["id-token-http-issuer-public-host", "id-token-http-issuer-lookalike-host"] {
            let data = try Data(contentsOf: fixtures.appendingPathComponent("cases/\(name).json"))
            let fixture = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let verify = try await work.ssokit([
                "oidc", "verify-id-token", try #require(fixture["token"] as? String), "--issuer",
                try #require(fixture["issuer"] as? String), "--client-id", "ssokit-client", "--jwks",
                fixtures.appendingPathComponent("jwks/main.json").path, "--now", "1767225600",
            ])
            #expect(verify.status == 1, "\(name): \(verify.stdout)")
            #expect(verify.json?["error"] as? String == "insecure_url", "\(name)")
        }
    }

    @Test func redirectListenerIgnoresForeignCallbacksAndTheBrowserGetsNoSecrets() async throws {
        let provider = try await MockProvider()
        let work = try CLIWorkspace()
        defer {
            provider.stop()
            work.cleanUp()
        }
        // A "browser" that first plays a local attacker racing the real callback, records its environment, then
        // signs in for real.
        let report = work.base.appendingPathComponent("browser-report.json").path
        let browser = MockProvider.peerDirectory.appendingPathComponent("browser.py").path
        let script = try work.file(
            "hostile_browser.py",
            """
            import json, os, sys, urllib.error, urllib.parse, urllib.request
            url = sys.argv[-1]
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
            redirect, state = query["redirect_uri"][0], query["state"][0]
            answers = []
            for forged in ("code=forged&state=not-the-state", "code=forged",
                           "code=forged&state=%s&state=%s" % (state, state), "state=" + state[:-1]):
                try:
                    answers.append(urllib.request.urlopen(redirect + "?" + forged, timeout=5).status)
                except urllib.error.HTTPError as error:
                    answers.append(error.code)
            with open(sys.argv[1], "w") as out:
                json.dump({"answers": answers, "environment": sorted(os.environ)}, out)
            os.execv(sys.executable, [sys.executable, \(browser.debugDescription), url])
            """)
        let login = try await work.ssokit(
            ["oidc", "login"] + work.session(provider.issuer) + [
                "--browser-command", "\(MockProvider.python) \(script) \(report)", "--json", "--protect",
            ],
            environment: ["SSOKIT_CLIENT_SECRET": work.secret, "SSOKIT_PASSPHRASE": "local passphrase"])
        #expect(login.status == 0, "login failed: \(login.stdout) \(login.stderr)")
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        #expect(seen["answers"] as? [Int] == [400, 400, 400, 400], "every foreign callback is turned away")
        let environment = try #require(seen["environment"] as? [String])
        #expect(environment.contains("XDG_CONFIG_HOME"), "the rest of the environment is passed on")
        #expect(!environment.contains("SSOKIT_PASSPHRASE"))
        #expect(!environment.contains("SSOKIT_CLIENT_SECRET"))
    }

    @Test func postgresURLFromTheEnvironmentAndPasswordFromThePasswordFile() async throws {
        let work = try CLIWorkspace()
        defer { work.cleanUp() }
        // SSOKIT_POSTGRES_URL selects the shared store without --postgres on the command line; --cache still wins.
        try await PostgresTestServer.withDatabase { url in
            let viaEnvironment = try await work.ssokit(["cache", "list"], environment: ["SSOKIT_POSTGRES_URL": url])
            #expect(viaEnvironment.status == 0, "\(viaEnvironment.stdout) \(viaEnvironment.stderr)")
            // The CLI created its schema in PostgreSQL (the query fails without the table).
            _ = try await PostgresTestServer.execute(url, [PostgresQuery(unsafeSQL: "SELECT 1 FROM ssokit_rights")])
        }
        let local = try await work.ssokit(
            ["cache", "list", "--cache", work.cache.path],
            environment: ["SSOKIT_POSTGRES_URL": "postgres://nobody@127.0.0.1:1/none"])
        #expect(local.status == 0, "\(local.stdout)")

        // A URL without a password takes it from PGPASSFILE (libpq's format); the probe sees what is sent.
        let probe = try PostgresPasswordProbe()
        defer { probe.stop() }
        let passfile = try work.file(
            "pgpass", "# comment\n*:*:other:ssokit:wrong\n127.0.0.1:\(probe.port):ssokit_db:ssokit:pg\\:pass-w0rd\n")
        let environment = [
            "SSOKIT_POSTGRES_URL": "postgres://ssokit@127.0.0.1:\(probe.port)/ssokit_db", "PGPASSFILE": passfile,
        ]
        let probed = try await work.ssokit(["cache", "list"], environment: environment, timeout: 60)
        #expect(probed.status == 1)
        #expect(probed.json?["error"] as? String == "store_unavailable")
        #expect(probe.password == "pg:pass-w0rd")
        #expect(!probed.stdout.contains("pass-w0rd"))
        try Self.mode(passfile, 0o644)
        let loose = try await work.ssokit(["cache", "list"], environment: environment)
        #expect(loose.json?["error"] as? String == "insecure_key_file")
    }
}
