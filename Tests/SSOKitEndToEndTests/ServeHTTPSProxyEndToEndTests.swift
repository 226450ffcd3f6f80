import Crypto
import Foundation
import Testing

/// `ssokit serve --proxy-port` with an https Redirect URL: the local certificate authority created on first start
/// (its key sealed at rest, its certificate's path and fingerprint logged), CONNECT to the profile's https host
/// intercepted with a leaf that a plain TLS client trusting that authority accepts (and one that does not, refuses),
/// the authority kept across restarts, and a SIGHUP reload that updates what the proxy intercepts and the PAC file
/// (or, for a host the authority may not sign for, is refused).
extension ServeEndToEndTests {
    static let httpsHost = "idp.example.test"

    /// The dev IdP's payload plus one whose Redirect URL is https on `httpsHost` (an IdP that does not resolve:
    /// the adapter's answer to it is a 502 of its own).
    func profileWithHTTPS(_ idp: String, httpsHost: String? = ServeEndToEndTests.httpsHost) -> String {
        let base = profile(idp)
        guard let httpsHost else { return base }
        let https = """
            ,{"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "e2e.serve.https",
              "ExtensionIdentifier": "com.example.sso.extension", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
              "URLs": ["https://\(httpsHost)/authorize"],
              "ExtensionData": {"protocol": "oidc", "issuer": "https://\(httpsHost)", "client_id": "web",
               "client_auth": "none", "scopes": "openid", "redirect_uri": "http://127.0.0.1:9/callback"}}]}
            """
        return String(base.trimmingCharacters(in: .whitespacesAndNewlines).dropLast(2)) + https
    }

    /// `connect_probe.py`: one GET of `url` through the proxy, trusting `caFile` only (nil: the system's roots). The
    /// adapter's answer for the unresolvable IdP takes as long as its HTTP client's connect attempts (about 10 s).
    func probe(proxyPort: Int, _ url: String, caFile: String?) async throws -> [String: Any] {
        let script = MockProvider.peerDirectory.appendingPathComponent("connect_probe.py").path
        let result = try await ProcessRunner.run(
            MockProvider.python,
            [script, "\(proxyPort)", url, "--timeout", "40"] + (caFile.map { ["--cafile", $0] } ?? []),
            timeout: 90)
        return try #require(result.json, "\(result.stdout) \(result.stderr)")
    }

    static func fingerprint(ofPEM pem: String) -> String? {
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: base64).map { SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined() }
    }

    @Test func httpsRedirectURLsThroughTheLocalCertificateAuthorityAndReloads() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let profilePath = try write("profile.json", profileWithHTTPS(idp.baseURL))
        let registry = try write("registry.json", #"{"uids": {"\#(getuid())": ["com.example.mail"]}}"#)
        let cache = folder.appendingPathComponent("cache")
        let arguments = [
            "--profile", profilePath, "--socket", socket, "--registry", registry, "--cache", cache.path,
            "--proxy-port", "0",
        ]
        var serve = try await ServeProcess(arguments, folder: folder)

        // First start: the authority is created in the cache folder; the log names its certificate and fingerprint.
        let created = try #require(
            await serve.waitForLog(
                "local certificate authority created: trust its certificate for the intercepted https hosts"))
        let certificatePath = try #require(created["certificate"] as? String)
        #expect(certificatePath == cache.appendingPathComponent("proxy-ca.pem").path)
        let pem = try String(contentsOfFile: certificatePath, encoding: .utf8)
        let fingerprint = try #require(created["sha256_fingerprint"] as? String)
        #expect(fingerprint == Self.fingerprint(ofPEM: pem))
        #expect(created["permitted_hosts"] as? String == Self.httpsHost)
        let archivePath = cache.appendingPathComponent("proxy-ca.json").path
        let mode = try FileManager.default.attributesOfItem(atPath: archivePath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let archive = try String(contentsOfFile: archivePath, encoding: .utf8)
        #expect(archive.contains("\"sealed_key\"") && !archive.contains("PRIVATE KEY"), "the key is sealed at rest")
        let listening = try #require(await serve.waitForLog("proxy listening"))
        var port = try #require((listening["port"] as? String).flatMap { Int($0) })

        // The PAC file sends the https origin to the proxy too.
        let pac = try await SocketHTTP.get(socket, "/proxy.pac")
        #expect(pac.body.contains("\"https \(Self.httpsHost) 443\": true"), "\(pac.body)")

        // A plain TLS client trusting the authority: the CONNECT is intercepted with a leaf for the host, and the
        // request inside reaches the adapter (whose IdP does not resolve: its own 502, not the proxy's).
        let url = "https://\(Self.httpsHost)/authorize?response_type=code&client_id=web&state=s"
        let trusted = try await probe(proxyPort: port, url, caFile: certificatePath)
        #expect(trusted["error"] == nil, "\(trusted)")
        #expect(trusted["issuer"] as? String == "SSOKit local interception CA")
        #expect((trusted["subject_alt_names"] as? [[String]])?.contains(["DNS", Self.httpsHost]) == true)
        #expect(trusted["status"] as? Int == 502)
        #expect((trusted["body"] as? String)?.hasPrefix("SSO extension: ") == true, "\(trusted)")
        // Without the authority, the client refuses the leaf.
        let untrusted = try await probe(proxyPort: port, url, caFile: nil)
        #expect((untrusted["error"] as? String)?.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(untrusted)")

        // A reload without the https payload: the proxy no longer intercepts the host (a blind tunnel, which
        // cannot reach it) and the PAC file no longer names it.
        _ = try write("profile.json", profileWithHTTPS(idp.baseURL, httpsHost: nil))
        serve.send(SIGHUP)
        #expect(await serve.waitForLog("profile reloaded") != nil)
        let reloadedPAC = try await SocketHTTP.get(socket, "/proxy.pac")
        #expect(!reloadedPAC.body.contains(Self.httpsHost))
        #expect(reloadedPAC.body.contains("PROXY 127.0.0.1:\(port)"))
        let tunnelled = try await probe(proxyPort: port, url, caFile: certificatePath)
        #expect(tunnelled["connect_status"] as? Int == 502, "\(tunnelled)")

        // A reload naming an https host the authority may not sign for: refused, the running profile stays.
        _ = try write("profile.json", profileWithHTTPS(idp.baseURL, httpsHost: "other.example.test"))
        serve.send(SIGHUP)
        let refused = try #require(await serve.waitForLog("profile reload refused; the running profile stays"))
        #expect(refused["error"] as? String == "invalid_configuration")
        #expect(try await SocketHTTP.get(socket, "/proxy.pac").body == reloadedPAC.body)
        #expect(await serve.stop() == 0)

        // The next start keeps the authority the user trusts: same certificate, not created again.
        _ = try write("profile.json", profileWithHTTPS(idp.baseURL))
        serve = try await ServeProcess(arguments, folder: folder, name: "again")
        let loaded = try #require(await serve.waitForLog("local certificate authority"))
        #expect(loaded["sha256_fingerprint"] as? String == fingerprint)
        #expect(try String(contentsOfFile: certificatePath, encoding: .utf8) == pem)
        port = try #require(
            (await serve.waitForLog("proxy listening")?["port"] as? String).flatMap { Int($0) })
        let again = try await probe(proxyPort: port, url, caFile: certificatePath)
        #expect(again["status"] as? Int == 502 && again["error"] == nil, "\(again)")
        #expect(await serve.stop() == 0)
    }
}
