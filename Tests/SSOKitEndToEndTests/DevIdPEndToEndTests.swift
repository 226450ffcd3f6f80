import Crypto
import Foundation
import Testing

/// `ssokit dev-idp` as a process, proven against implementations we did not write (Authlib's OAuth 2.0 client,
/// pysaml2's SP) and against our own CLI (`ssokit oidc login/refresh/logout`, `ssokit saml verify`), all on
/// 127.0.0.1. The Python scripts live in `peer/` and print one JSON object of named checks.
@Suite(.serialized)
struct DevIdPEndToEndTests {
    static let password = "alice-e2e-password"
    let folder: URL
    let clientKey = P256.Signing.PrivateKey()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("devidp-e2e-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try clientKey.pemRepresentation.write(
            to: folder.appendingPathComponent("client.key"), atomically: true, encoding: .utf8)
        // ssokit refuses a private key file that other users could read.
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent("client.key").path)
        try clientKey.publicKey.pemRepresentation.write(
            to: folder.appendingPathComponent("client.pub"), atomically: true, encoding: .utf8)
        try
            #"{"users": [{"username": "alice", "password": "\#(Self.password)", "claims": {"name": "Alice", "email": "alice@example.com", "email_verified": true}}]}"#
            .write(to: users, atomically: true, encoding: .utf8)
    }

    var users: URL { folder.appendingPathComponent("users.json") }
    static var keys: URL { MockProvider.packageRoot.appendingPathComponent("fixtures/saml/keys") }

    /// Every client and SP the tests use.
    var registrations: String {
        let sp = Self.keys.appendingPathComponent("sp.crt").path
        let publicKey = folder.appendingPathComponent("client.pub").path
        let loopback =
            #""redirect_uris": ["http://127.0.0.1/callback"], "post_logout_redirect_uris": ["http://127.0.0.1/"]"#
        return """
            {"oidc_clients": [
              {"client_id": "ssokit-demo", "token_endpoint_auth_method": "none", \(loopback)},
              {"client_id": "rp-none", "token_endpoint_auth_method": "none", \(loopback)},
              {"client_id": "rp-basic", "client_secret": "basic-secret", \(loopback)},
              {"client_id": "rp-post", "token_endpoint_auth_method": "client_secret_post", "client_secret": "post-secret",
               \(loopback)},
              {"client_id": "rp-jwt", "token_endpoint_auth_method": "private_key_jwt", "public_key_file": "\(publicKey)",
               "key_id": "e2e-key", \(loopback)}],
             "saml_service_providers": [
              {"entity_id": "http://127.0.0.1/pysaml2-sp", "acs_urls": ["http://127.0.0.1:9/acs"],
               "slo_url": "http://127.0.0.1:9/slo", "signing_certificate_files": ["\(sp)"],
               "encryption_certificate_file": "\(sp)"},
              {"entity_id": "http://127.0.0.1/pysaml2-plain", "acs_urls": ["http://127.0.0.1:9/acs"],
               "slo_url": "http://127.0.0.1:9/slo", "sign_assertion": false},
              {"entity_id": "urn:ssokit:cli-sp", "acs_urls": ["http://127.0.0.1/saml/acs"],
               "encryption_certificate_file": "\(sp)"}]}
            """
    }

    private func startIdP() async throws -> DevIdPProcess {
        try await DevIdPProcess(registrations: registrations, arguments: ["--users", users.path])
    }

    private func python(_ script: String, _ arguments: [String]) async throws -> (ProcessResult, [String: Bool]) {
        let result = try await ProcessRunner.run(
            MockProvider.python, [MockProvider.peerDirectory.appendingPathComponent(script).path] + arguments,
            timeout: 240)
        let checks = result.json?["checks"] as? [String: Bool] ?? [:]
        return (result, checks)
    }

    @Test func readyLineDataFolderAndCleanStop() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        #expect(idp.baseURL.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+/) != nil, "\(idp.baseURL)")
        #expect(idp.stderr.contains("for development, demos and tests only"))
        for name in ["oidc-signing-key.pem", "saml-signing-key.pem", "saml-signing-cert.pem"] {
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: idp.dataFolder.appendingPathComponent(name).path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
        let folderMode = try FileManager.default.attributesOfItem(atPath: idp.dataFolder.path)[.posixPermissions]
        #expect(folderMode as? Int == 0o700)
        let discovery = try Data(
            contentsOf: try #require(URL(string: idp.baseURL + "/.well-known/openid-configuration")))
        let issuer = (try JSONSerialization.jsonObject(with: discovery) as? [String: Any])?["issuer"] as? String
        #expect(issuer == idp.baseURL)
        #expect(idp.stop() == 0, "SIGTERM stops it cleanly")
        #expect(idp.stdout == "READY \(idp.baseURL)\n", "stdout holds exactly the READY line")
        #expect(idp.stderr.contains("GET /.well-known/openid-configuration 200 "))
        let again = try await DevIdPProcess(arguments: ["--users", users.path])
        defer { again.remove() }
        #expect(again.stop(signal: SIGINT) == 0, "SIGINT stops it cleanly too")
    }

    @Test func unusableDataFolderOrUsersFileIsATypedFailure() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let folderFailure = try await ProcessRunner.run(
            MockProvider.ssokit, ["dev-idp", "--data", "/dev/null/dev-idp", "--users", users.path], timeout: 30)
        #expect(folderFailure.status == 1)
        #expect(folderFailure.json?["error"] as? String == "data_folder_unavailable")
        let usersFailure = try await ProcessRunner.run(
            MockProvider.ssokit,
            ["dev-idp", "--data", folder.appendingPathComponent("data").path, "--users", "/nonexistent/users.json"],
            timeout: 30)
        #expect(usersFailure.status == 1)
        #expect(usersFailure.json?["error"] as? String == "invalid_configuration")
        #expect(!usersFailure.stdout.contains("READY"))
    }

    @Test func nonLoopbackHostIsAUsageErrorUnlessAllowed() async throws {
        let refused = try await ProcessRunner.run(MockProvider.ssokit, ["dev-idp", "--host", "0.0.0.0"], timeout: 30)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--allow-remote"))
        let idp = try await DevIdPProcess(arguments: ["--host", "0.0.0.0", "--allow-remote", "--users", users.path])
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        #expect(idp.stderr.contains("warning: listening on 0.0.0.0"))
        #expect(idp.baseURL.hasPrefix("http://0.0.0.0:"))
    }

    @Test(arguments: ["rp-none", "rp-basic", "rp-post", "rp-jwt"])
    func authlibClient(_ clientID: String) async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        var arguments = [
            "--issuer", idp.baseURL, "--client-id", clientID, "--username", "alice", "--password", Self.password,
        ]
        switch clientID {
        case "rp-basic": arguments += ["--auth-method", "client_secret_basic", "--client-secret", "basic-secret"]
        case "rp-post": arguments += ["--auth-method", "client_secret_post", "--client-secret", "post-secret"]
        case "rp-jwt":
            arguments += [
                "--auth-method", "private_key_jwt", "--private-key", folder.appendingPathComponent("client.key").path,
                "--key-id", "e2e-key", "--alg", "ES256",
            ]
        default: arguments += ["--auth-method", "none"]
        }
        let (result, checks) = try await python("devidp_oidc_client.py", arguments)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr.suffix(2000))")
        for name in [
            "discovery", "wrong_password", "callback_iss", "bad_verifier", "burned_code", "sso", "id_token",
            "reused_code", "reused_code_revokes", "userinfo", "refresh_rotates", "reused_refresh",
            "reuse_revokes_family", "revocation", "revoked_refresh", "revoked_access", "end_session", "session_ended",
        ] {
            #expect(checks[name] == true, "\(name): \(result.stdout)")
        }
        #expect(idp.stop() == 0)
        for secret in [Self.password, "basic-secret", "post-secret"] { #expect(!idp.stderr.contains(secret)) }
    }

    @Test(arguments: [
        ["http://127.0.0.1/pysaml2-sp", "--sign-requests", "--expect-encrypted"],
        ["http://127.0.0.1/pysaml2-plain", "--unsigned-assertions"],
    ])
    func pysaml2ServiceProvider(_ setup: [String]) async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let (result, checks) = try await python(
            "devidp_saml_sp.py",
            [
                "--idp", idp.baseURL, "--entity-id", setup[0], "--acs-url", "http://127.0.0.1:9/acs", "--slo-url",
                "http://127.0.0.1:9/slo", "--username", "alice", "--password", Self.password,
            ] + setup.dropFirst())
        #expect(result.status == 0, "\(result.stdout) \(result.stderr.suffix(2000))")
        var expected = [
            "metadata", "redirect_binding", "post_binding_no_form", "post_binding", "slo", "session_ended",
            "unknown_sp",
        ]
        if setup.contains("--sign-requests") { expected += ["unsigned_refused", "forged_refused"] }
        for name in expected { #expect(checks[name] == true, "\(name): \(result.stdout)") }
        #expect(result.json?["name_id"] as? String == "alice@example.com")
        #expect(idp.stop() == 0)
    }

    @Test func ssokitOIDCCommandsAgainstTheDevIdP() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let browser =
            MockProvider.python + " " + MockProvider.peerDirectory.appendingPathComponent("devidp_browser.py").path
        let environment = [
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "DEVIDP_USERNAME": "alice",
            "DEVIDP_PASSWORD": Self.password,
        ]
        func ssokit(_ arguments: [String]) async throws -> ProcessResult {
            try await ProcessRunner.run(MockProvider.ssokit, arguments, environment: environment, timeout: 120)
        }
        for (clientID, auth) in [
            ("ssokit-demo", [] as [String]),
            (
                "rp-jwt",
                [
                    "--client-auth", "private_key_jwt", "--client-key",
                    folder.appendingPathComponent("client.key").path,
                    "--client-key-id", "e2e-key",
                ]
            ),
        ] {
            let common =
                [
                    "--issuer", idp.baseURL, "--client-id", clientID, "--cache",
                    folder.appendingPathComponent("cache").path,
                ] + auth
            let login = try await ssokit(
                ["oidc", "login"] + common + ["--browser-command", browser, "--userinfo", "--json"])
            #expect(login.status == 0, "\(clientID): \(login.stdout) \(login.stderr)")
            let claims = login.json?["id_token_claims"] as? [String: Any]
            #expect(claims?["sub"] as? String == "alice")
            #expect(claims?["name"] as? String == "Alice")
            #expect((login.json?["userinfo"] as? [String: Any])?["email"] as? String == "alice@example.com")
            #expect(login.json?["has_refresh_token"] as? Bool == true)
            let refresh = try await ssokit(["oidc", "refresh"] + common + ["--json"])
            #expect(refresh.status == 0, "\(refresh.stdout) \(refresh.stderr)")
            let logout = try await ssokit(["oidc", "logout"] + common)
            #expect(logout.status == 0)
            #expect(logout.json?["revoked"] as? Bool == true, "RFC 7009 revocation at the dev IdP")
        }
        let wrong = try await ProcessRunner.run(
            MockProvider.ssokit,
            [
                "oidc", "login", "--issuer", idp.baseURL, "--client-id", "ssokit-demo", "--cache",
                folder.appendingPathComponent("cache").path, "--browser-command", browser, "--timeout", "5",
            ],
            environment: environment.merging(["DEVIDP_PASSWORD": "wrong"]) { $1 }, timeout: 60)
        #expect(wrong.status == 1, "a wrong password never reaches the redirect")
        #expect(idp.stop() == 0)
    }

    @Test func ssokitSAMLVerifyAcceptsTheDevIdPsResponse() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let metadata = folder.appendingPathComponent("idp.xml")
        try Data(contentsOf: try #require(URL(string: idp.baseURL + "/saml/metadata"))).write(to: metadata)
        let acs = "http://127.0.0.1:8123/saml/acs"
        let request = try await ProcessRunner.run(
            MockProvider.ssokit,
            [
                "saml", "authn-request", "--idp-metadata", metadata.path, "--sp-entity-id", "urn:ssokit:cli-sp",
                "--acs-url", acs, "--relay-state", "r1", "--json",
            ], timeout: 60)
        #expect(request.status == 0, "\(request.stdout) \(request.stderr)")
        let url = try #require(request.json?["url"] as? String)
        let requestID = try #require(request.json?["request_id"] as? String)
        let response = folder.appendingPathComponent("response.b64")
        let browse = try await ProcessRunner.run(
            MockProvider.python,
            [
                MockProvider.peerDirectory.appendingPathComponent("devidp_browser.py").path, "--saml-out",
                response.path, url,
            ],
            environment: ["DEVIDP_USERNAME": "alice", "DEVIDP_PASSWORD": Self.password], timeout: 60)
        #expect(browse.status == 0, "\(browse.stderr)")
        let common = [
            "--idp-metadata", metadata.path, "--sp-entity-id", "urn:ssokit:cli-sp", "--acs-url", acs,
            "--sp-key", Self.keys.appendingPathComponent("sp.key").path,
        ]
        let verify = try await ProcessRunner.run(
            MockProvider.ssokit, ["saml", "verify", response.path, "--request-id", requestID] + common, timeout: 60)
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        #expect(verify.json?["name_id"] as? String == "alice@example.com")
        #expect(verify.json?["issuer"] as? String == idp.baseURL + "/saml/metadata")
        #expect(
            (verify.json?["attributes"] as? [String: Any])?["urn:oid:0.9.2342.19200300.100.1.3"] as? [String]
                == ["alice@example.com"])
        let otherRequest = try await ProcessRunner.run(
            MockProvider.ssokit, ["saml", "verify", response.path, "--request-id", "_other"] + common, timeout: 60)
        #expect(otherRequest.status == 1)
        #expect(otherRequest.json?["error"] as? String == "in_response_to_mismatch")
        let noKey = try await ProcessRunner.run(
            MockProvider.ssokit,
            ["saml", "verify", response.path, "--request-id", requestID] + common.dropLast(2), timeout: 60)
        #expect(noKey.json?["error"] as? String == "decryption_failed", "the assertion is encrypted to sp.crt")
    }

    @Test func demoUserWithAPasswordPrintedOnce() async throws {
        let idp = try await DevIdPProcess()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let match = try #require(idp.stderr.firstMatch(of: /Demo user: demo, password: ([A-Za-z0-9_-]+)/))
        let password = String(match.1)
        let browser =
            MockProvider.python + " " + MockProvider.peerDirectory.appendingPathComponent("devidp_browser.py").path
        let login = try await ProcessRunner.run(
            MockProvider.ssokit,
            [
                "oidc", "login", "--issuer", idp.baseURL, "--client-id", "ssokit-demo", "--cache",
                folder.appendingPathComponent("cache").path, "--browser-command", browser, "--json",
            ],
            environment: [
                "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "DEVIDP_USERNAME": "demo",
                "DEVIDP_PASSWORD": password,
            ], timeout: 120)
        #expect(login.status == 0, "\(login.stdout) \(login.stderr)")
        #expect((login.json?["id_token_claims"] as? [String: Any])?["email"] as? String == "demo@example.com")
        #expect(idp.stop() == 0)
        #expect(idp.stderr.components(separatedBy: password).count == 2, "the password appears once, at start")
    }
}
