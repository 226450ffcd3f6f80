import Crypto
import Foundation
import SSOKitCore
import Testing

/// `ssokit rights` as scripts and servers drive it: challenge answers that sign nothing else (a "challenge" crafted
/// as a `private_key_jwt` signing input does not produce a client assertion), and rights from an earlier SSOKit.
@Suite(.serialized)
struct RightsEndToEndTests {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-e2e-rights-\(UUID().uuidString)")
    let passphrase = ["SSOKIT_PASSPHRASE": "device pass"]

    private func ssokit(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        var merged = ["XDG_CONFIG_HOME": base.appendingPathComponent("config").path]
        for (name, value) in environment { merged[name] = value }
        return try await ProcessRunner.run(
            MockProvider.ssokit, arguments + ["--cache", base.appendingPathComponent("cache").path],
            environment: merged, timeout: 120)
    }

    /// Creates the right and returns its public key.
    private func createRight(_ identifier: String) async throws -> P256.Signing.PublicKey {
        let create = try await ssokit(["rights", "create", identifier], environment: passphrase)
        #expect(create.status == 0, "create failed: \(create.stdout) \(create.stderr)")
        let pem = try #require(create.json?["public_key_pem"] as? String)
        return try P256.Signing.PublicKey(pemRepresentation: pem)
    }

    private func signature(of challenge: [UInt8], by identifier: String) async throws -> P256.Signing.ECDSASignature {
        let signed = try await ssokit(
            // `--challenge=VALUE`: base64url text may begin with '-', which would otherwise read as an option.
            ["rights", "authorize", identifier, "--challenge=" + Base64URL.encode(challenge)], environment: passphrase)
        #expect(signed.status == 0, "authorize failed: \(signed.stdout) \(signed.stderr)")
        let bytes = try #require((signed.json?["signature"] as? String).flatMap { Base64URL.decode($0) })
        return try P256.Signing.ECDSASignature(rawRepresentation: bytes)
    }

    @Test("a challenge whose bytes are a client assertion's JWS signing input does not sign that assertion")
    func challengeIsNotAClientAssertion() async throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let key = try await createRight("com.example.client-key")
        // What an attacker who may pose challenges would send: the signing input of a private_key_jwt assertion
        // (RFC 7523) for this client, exactly as `RightClientAssertionSigner` lays it out.
        let header = Base64URL.encode(Array(#"{"alg":"ES256","typ":"JWT"}"#.utf8))
        let now = Int(Date().timeIntervalSince1970)
        let claims =
            #"{"aud":"https://idp.example.com/token","exp":\#(now + 300),"iat":\#(now),"#
            + #""iss":"client-1","jti":"attacker-chosen","sub":"client-1"}"#
        let signingInput = header + "." + Base64URL.encode(Array(claims.utf8))

        let answer = try await signature(of: Array(signingInput.utf8), by: "com.example.client-key")
        #expect(!key.isValidSignature(answer, for: Array(signingInput.utf8)), "the answer is a valid ES256 JWS")
        // The answer is a challenge signature: the documented context followed by the challenge.
        let context = Array("ssokit-right-challenge-v1".utf8) + [0]
        #expect(key.isValidSignature(answer, for: context + Array(signingInput.utf8)))
    }

    @Test("a server verifies the answer to its challenge with the exported public key and the documented context")
    func serverVerifiesChallenge() async throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let key = try await createRight("com.example.device")
        // 0xF8 first: the base64url text then begins with '-' (which a random challenge does one time in 64).
        let challenge = [0xF8] + (0..<31).map { _ in UInt8.random(in: 0...255) }
        let answer = try await signature(of: challenge, by: "com.example.device")
        let context = Array("ssokit-right-challenge-v1".utf8) + [0]
        #expect(key.isValidSignature(answer, for: context + challenge))
        #expect(!key.isValidSignature(answer, for: challenge))
        #expect(!key.isValidSignature(answer, for: context + challenge.dropLast()))
    }

    @Test("a right written by an earlier SSOKit is listed as outdated, refused as record_outdated, and can be replaced")
    func outdatedRight() async throws {
        defer { try? FileManager.default.removeItem(at: base) }
        let fixture = MockProvider.packageRoot.appendingPathComponent("fixtures/rights/schema-v2")
        let cache = base.appendingPathComponent("cache")
        let keys = base.appendingPathComponent("config/ssokit")
        for folder in [cache, keys] {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        for (source, target) in [
            (fixture.appendingPathComponent("cache.sqlite"), cache.appendingPathComponent("cache.sqlite")),
            (fixture.appendingPathComponent("device.key"), keys.appendingPathComponent("device.key")),
        ] {
            try FileManager.default.copyItem(at: source, to: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target.path)
        }

        let listed = try await ssokit(["rights", "list"])
        #expect(listed.status == 0, "list failed: \(listed.stdout) \(listed.stderr)")
        let entry = try #require((listed.json?["rights"] as? [[String: Any]])?.first)
        #expect(entry["identifier"] as? String == "legacy.device")
        #expect(entry["outdated"] as? Bool == true)
        let refused = try await ssokit(
            ["rights", "authorize", "legacy.device"], environment: ["SSOKIT_PASSPHRASE": "legacy passphrase"])
        #expect(refused.status == 1)
        #expect(refused.json?["error"] as? String == "record_outdated")
        #expect((refused.json?["message"] as? String)?.contains("delete it and create it again") == true)

        await #expect(try ssokit(["rights", "delete", "legacy.device"]).status == 0)
        _ = try await createRight("legacy.device")
        let again = try await ssokit(["rights", "list"])
        #expect((again.json?["rights"] as? [[String: Any]])?.first?["outdated"] as? Bool == false)
        let authorized = try await ssokit(["rights", "authorize", "legacy.device"], environment: passphrase)
        #expect(authorized.json?["authorized"] as? Bool == true)
    }
}
