import Foundation
import Testing

/// `ssokit serve` on TCP with mutual TLS, driven with curl: the client certificate's SHA-256 selects the registry's
/// list; a certificate the registry does not name acts as no app; no certificate, or one from another CA, gets no
/// TLS connection at all.
@Suite(.serialized)
struct MutualTLSEndToEndTests {
    let folder: URL

    init() throws {
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("mtls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// curl against `url` with `client` (a name in the PKI, or nil for none); the body and status, or curl's
    /// failure.
    func curl(_ url: String, _ pki: TestPKI, client: String?, body: String? = nil) async throws -> ProcessResult {
        var arguments = ["-sS", "--max-time", "20", "--cacert", pki.path("ca.pem"), "-w", "\n%{http_code}"]
        if let client { arguments += ["--cert", pki.path(client + ".pem"), "--key", pki.path(client + ".key")] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        return try await ProcessRunner.run("/usr/bin/curl", arguments + [url], timeout: 60)
    }

    @Test func theClientCertificateSelectsTheAppsAndNoCertificateNoConnection() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let pki = try await TestPKI(in: folder)
        let registry = folder.appendingPathComponent("registry.json")
        try Data(#"{"certificates": {"\#(try pki.fingerprint("client-a"))": ["com.example.mail"]}}"#.utf8)
            .write(to: registry)
        let profile = folder.appendingPathComponent("profile.json")
        try Data(
            """
            {"PayloadContent": [{"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "e2e.mtls",
              "ExtensionIdentifier": "com.example.sso.extension", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
              "URLs": ["http://127.0.0.1:9/authorize"],
              "ExtensionData": {"protocol": "oidc", "issuer": "http://127.0.0.1:9", "client_id": "ssokit-demo",
               "client_auth": "none", "redirect_uri": "http://127.0.0.1:9/callback"}}]}
            """.utf8
        ).write(to: profile)
        let common = ["--profile", profile.path, "--cache", folder.appendingPathComponent("cache").path]
        let tls = [
            "--tls-cert", pki.path("server.pem"), "--tls-key", pki.path("server.key"), "--client-ca",
            pki.path("ca.pem"),
        ]

        // Mutual TLS needs all three files, and a registry.
        let withoutRegistry = try await ProcessRunner.run(
            MockProvider.ssokit, ["serve"] + common + ["--host", "127.0.0.1", "--port", "0"] + tls,
            environment: ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path], timeout: 60)
        #expect(withoutRegistry.status == 64, "\(withoutRegistry.stderr)")

        let serve = try await ServeProcess(
            common + ["--host", "127.0.0.1", "--port", "0", "--registry", registry.path] + tls, folder: folder)
        #expect(serve.address.hasPrefix("https://127.0.0.1:"))
        let health = try await curl(serve.address + "/healthz", pki, client: "client-a")
        #expect(health.status == 0 && health.stdout.hasSuffix("\n200"), "\(health.stdout) \(health.stderr)")

        // The registry's certificate acts as its app: the request reaches the adapter (whose IdP is down: a
        // failure result, still a 200).
        let body = #"{"app": "com.example.mail", "operation": "refresh", "url": "http://127.0.0.1:9/authorize"}"#
        let permitted = try await curl(serve.address + "/v1/authorize", pki, client: "client-a", body: body)
        #expect(permitted.stdout.hasSuffix("\n200"), "\(permitted.stdout)")
        #expect(permitted.stdout.contains(#""result":"failure""#))
        let otherApp = try await curl(
            serve.address + "/v1/authorize", pki, client: "client-a",
            body: body.replacingOccurrences(of: "com.example.mail", with: "com.example.other"))
        #expect(otherApp.stdout.hasSuffix("\n403") && otherApp.stdout.contains("app_not_permitted"))

        // Another certificate from the same CA: connected, but no app.
        let unnamed = try await curl(serve.address + "/v1/authorize", pki, client: "client-b", body: body)
        #expect(unnamed.stdout.hasSuffix("\n403") && unnamed.stdout.contains("app_not_permitted"), "\(unnamed.stdout)")

        // No certificate, or one from another CA: the handshake fails.
        let anonymous = try await curl(serve.address + "/healthz", pki, client: nil)
        #expect(anonymous.status != 0 || !anonymous.stdout.hasSuffix("\n200"), "\(anonymous.stdout)")
        let rogue = try await curl(serve.address + "/healthz", pki, client: "client-rogue")
        #expect(rogue.status != 0 || !rogue.stdout.hasSuffix("\n200"), "\(rogue.stdout)")

        #expect(await serve.stop() == 0)
    }
}
