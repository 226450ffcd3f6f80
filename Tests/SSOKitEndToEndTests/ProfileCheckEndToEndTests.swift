import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ssokit profile check` as external tools drive it (CLI-CONTRACT.md): exit codes, the JSON shapes, signed profiles,
/// and `--associated-domains` against a file server on 127.0.0.1 (`peer/well_known_server.py`).
@Suite(.serialized)
struct ProfileCheckEndToEndTests {
    static let fixtures = MockProvider.packageRoot.appendingPathComponent("fixtures/profiles")

    static func profile(_ name: String) -> String { fixtures.appendingPathComponent("profiles/\(name)").path }

    private func check(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(
            MockProvider.ssokit, ["profile", "check"] + arguments + ["--now", "2026-01-01T00:00:00Z"], timeout: 60)
    }

    @Test("a valid profile: exit 0 and one JSON object summarizing it, without its secrets")
    func summary() async throws {
        let result = try await check(["--profile", Self.profile("combined.mobileconfig")])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let json = try #require(result.json)
        #expect(json["valid"] as? Bool == true)
        #expect(json["signature"] as? String == "unsigned")
        #expect(json["other_payload_types"] as? [String] == ["com.apple.wifi.managed"])
        let payloads = try #require(json["payloads"] as? [[String: Any]])
        #expect(
            payloads.map { $0["identifier"] as? String } == [
                "com.example.sso.oidc", "com.example.sso.saml", "com.example.sso.credential",
            ])
        #expect(payloads.map { $0["type"] as? String } == ["redirect", "redirect", "credential"])
        #expect(payloads.map { $0["protocol"] as? String } == ["oidc", "saml", "oidc"])
        #expect(!result.stdout.contains("inline-secret-value") && !result.stdout.contains("file-secret-value"))
    }

    @Test("with a URL: exactly {handled, extension, type}, exit 0 whether handled or not")
    func match() async throws {
        let cases: [(String, Bool, String?)] = [
            ("https://idp.example.com/saml/sso/redirect", true, "redirect"),
            ("https://www.apps.example.com/api", true, "credential"),
            ("https://example.net/", false, nil),
        ]
        for (url, handled, type) in cases {
            let result = try await check(["--profile", Self.profile("combined.json"), url])
            #expect(result.status == 0, "\(url): \(result.stdout) \(result.stderr)")
            let json = try #require(result.json)
            #expect(Set(json.keys) == ["handled", "extension", "type"])
            #expect(json["handled"] as? Bool == handled)
            #expect(json["type"] as? String == type)
            if handled {
                #expect(json["extension"] as? String == "com.example.sso.extension")
            } else {
                #expect(json["extension"] is NSNull)
                #expect(json["type"] is NSNull)
            }
        }
    }

    @Test("an invalid profile: exit 1, invalid_profile with one problem per broken rule naming payload and key")
    func invalid() async throws {
        let result = try await check([
            "--profile", Self.profile("invalid-redirect-urls.json"), "https://good.example.com/ok",
        ])
        #expect(result.status == 1)
        let json = try #require(result.json)
        #expect(json["error"] as? String == "invalid_profile")
        #expect((json["message"] as? String)?.isEmpty == false)
        let problems = try #require(json["problems"] as? [[String: Any]])
        #expect(problems.count == 7)
        #expect(
            problems.allSatisfy { $0["payload"] as? String == "com.example.bad.urls" && $0["key"] as? String == "URLs" }
        )
        #expect(problems.allSatisfy { ($0["message"] as? String)?.isEmpty == false })
        #expect(problems.first?["code"] as? String == "invalid_url")

        let entity = try await check(["--profile", Self.profile("entity-declaration.mobileconfig")])
        #expect(entity.status == 1)
        #expect(entity.json?["error"] as? String == "entity_declarations_refused")
    }

    @Test("signed profiles: verified with --trust, signed_not_verified without, tampered or untrusted refused")
    func signed() async throws {
        let trust = Self.fixtures.appendingPathComponent("keys/test-ca.crt").path
        let verified = try await check(["--profile", Self.profile("combined.signed.mobileconfig"), "--trust", trust])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        #expect(verified.json?["signature"] as? String == "verified")
        #expect(verified.json?["signer"] as? String == "CN=SSOKit Test Profile Signer,O=SSOKit Tests")
        let unverified = try await check(["--profile", Self.profile("combined.signed.mobileconfig")])
        #expect(unverified.json?["signature"] as? String == "signed_not_verified")
        #expect(unverified.json?["signer"] is NSNull)
        let tampered = try await check(["--profile", Self.profile("combined.tampered.mobileconfig"), "--trust", trust])
        #expect(tampered.status == 1)
        #expect(tampered.json?["error"] as? String == "invalid_signature")
        let untrusted = try await check([
            "--profile", Self.profile("combined.signed-by-other.mobileconfig"), "--trust", trust,
        ])
        #expect(untrusted.status == 1)
        #expect(untrusted.json?["error"] as? String == "untrusted_signer")
        let handled = try await check(
            [
                "--profile", Self.profile("combined.signed.mobileconfig"), "--trust", trust,
                "http://127.0.0.1:9400/oauth2/x",
            ])
        #expect(handled.json?["handled"] as? Bool == true)
    }

    @Test("usage errors exit 64; a missing file exits 1 with JSON")
    func usage() async throws {
        await #expect(try check([]).status == 64)
        await #expect(try check(["--profile", Self.profile("combined.json"), "not a url"]).status == 64)
        let missing = try await check(["--profile", "/nonexistent/profile.mobileconfig"])
        #expect(missing.status == 1)
        #expect(missing.json?["error"] as? String == "file_unreadable")
    }

    @Test("the example profiles are valid and route their IdPs' URLs")
    func examples() async throws {
        let folder = MockProvider.packageRoot.appendingPathComponent("Examples/profiles")
        let trust = Self.fixtures.appendingPathComponent("keys/test-ca.crt").path
        for (name, signature) in [
            ("sso.mobileconfig", "unsigned"), ("sso.json", "unsigned"), ("sso.signed.mobileconfig", "verified"),
        ] {
            let path = folder.appendingPathComponent(name).path
            let result = try await check(["--profile", path, "--trust", trust])
            #expect(result.status == 0, "\(name): \(result.stdout) \(result.stderr)")
            #expect(result.json?["signature"] as? String == signature, "\(name)")
            let saml = try await check(["--profile", path, "http://127.0.0.1:9500/idp/sso/redirect?SAMLRequest=x"])
            #expect(saml.json?["handled"] as? Bool == true, "\(name)")
        }
    }

    @Test("an external DTD named by the DOCTYPE is never fetched")
    func externalDTDIsNotFetched() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-dtd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("requests.log")
        let dtd = folder.appendingPathComponent("plist.dtd")
        try Data("<!ELEMENT plist ANY>".utf8).write(to: dtd)
        let peer = try await PeerProcess(
            script: "well_known_server.py",
            arguments: ["--max-seconds", "60", "--serve", "/plist.dtd=\(dtd.path)", "--log-file", log.path])
        defer { peer.stop() }
        let base = try #require(peer.firstLine.split(separator: " ").last.map(String.init))
        let original = try String(contentsOfFile: Self.profile("oidc-redirect.mobileconfig"), encoding: .utf8)
        let doctype = try #require(original.range(of: "<!DOCTYPE plist PUBLIC"))
        let end = try #require(original[doctype.lowerBound...].firstIndex(of: ">"))
        let profile = folder.appendingPathComponent("external-dtd.mobileconfig")
        try Data(
            original.replacingCharacters(
                in: doctype.lowerBound...end, with: #"<!DOCTYPE plist SYSTEM "\#(base)/plist.dtd">"#
            ).utf8
        )
        .write(to: profile)
        // client_secret_file is relative to the fixture's folder: give it the same layout.
        let files = folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try Data("s\n".utf8).write(to: files.appendingPathComponent("client-secret.txt"))
        let moved = folder.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: profile, to: moved.appendingPathComponent(profile.lastPathComponent))
        let result = try await check(["--profile", moved.appendingPathComponent(profile.lastPathComponent).path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        // The control: a GET of the DTD by the test itself is logged, so the log would show the parser's.
        let url = try #require(URL(string: "\(base)/plist.dtd"))
        _ = try await URLSession.shared.data(from: url)
        let deadline = Date().addingTimeInterval(5)
        var requests = ""
        while Date() < deadline {
            requests = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if requests.contains("GET") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(requests.components(separatedBy: "GET /plist.dtd").count == 2, "requests: \(requests)")
    }

    /// Writes a profile whose Redirect URL is on `base` (the file server) and an AASA file, and starts the server.
    private func associatedDomains(apps: [String], redirect: Bool = false) async throws -> ProcessResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-aasa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("aasa.json")
        let appList = apps.map { "\"\($0)\"" }.joined(separator: ",")
        try Data(#"{"authsrv": {"apps": [\#(appList)]}}"#.utf8).write(to: document)
        let path = "/.well-known/apple-app-site-association"
        let peer = try await PeerProcess(
            script: "well_known_server.py",
            arguments: ["--max-seconds", "120"]
                + (redirect
                    ? ["--redirect", "\(path)=http://127.0.0.1:9/elsewhere"] : ["--serve", "\(path)=\(document.path)"]))
        defer { peer.stop() }
        let base = try #require(peer.firstLine.split(separator: " ").last.map(String.init))
        let profile = folder.appendingPathComponent("profile.json")
        let json = """
            {"PayloadContent": [{"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "com.example.aasa",
              "ExtensionIdentifier": "com.example.sso.extension", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
              "URLs": ["\(base)/oauth2/"],
              "ExtensionData": {"protocol": "oidc", "issuer": "\(base)", "client_id": "c"}}]}
            """
        try Data(json.utf8).write(to: profile)
        return try await check(["--profile", profile.path, "--associated-domains"])
    }

    @Test("--associated-domains: passes when authsrv.apps lists TEAMID.ExtensionIdentifier")
    func associatedDomainsListed() async throws {
        let result = try await associatedDomains(apps: ["ZZZZZ99999.com.other", "ABCDE12345.com.example.sso.extension"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let rows = try #require(result.json?["associated_domains"] as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["ok"] as? Bool == true)
        #expect(rows.first?["app_id"] as? String == "ABCDE12345.com.example.sso.extension")
    }

    @Test("--associated-domains: exit 1 when the app is not listed or the document is a redirect")
    func associatedDomainsMismatch() async throws {
        for result in await [
            try associatedDomains(apps: ["ABCDE12345.com.example.other"]),
            try associatedDomains(apps: [], redirect: true),
        ] {
            #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
            #expect(result.json?["error"] as? String == "associated_domains_mismatch")
            let problems = try #require(result.json?["problems"] as? [[String: Any]])
            #expect(problems.first?["payload"] as? String == "com.example.aasa")
            #expect(problems.first?["key"] as? String == "URLs")
        }
    }
}
