import Foundation
import PostgresTestSupport
import Testing

/// `ssokit saml verify --cache DIR | --postgres URL` through the built CLI: each accepted assertion ID is recorded
/// per IdP, so a second call with the same Response exits 1 with `replay_detected`, while other assertions of the
/// same IdP still pass.
@Suite("ssokit saml verify: replay across calls")
struct SAMLReplayEndToEndTests {
    private static let fixtures = MockProvider.packageRoot.appendingPathComponent("fixtures/saml")
    private static let common = [
        "--idp-cert", fixtures.appendingPathComponent("keys/idp.crt").path, "--idp-entity-id",
        "https://idp.example.com/saml", "--sp-entity-id", "https://sp.example.com/saml", "--acs-url",
        "https://sp.example.com/saml/acs", "--request-id", "_ssokit-req-0001", "--now", "2026-01-01T00:00:00Z",
    ]

    private func verify(_ response: String, _ store: [String]) async throws -> ProcessResult {
        let path = Self.fixtures.appendingPathComponent("responses/\(response).xml").path
        return try await ProcessRunner.run(
            MockProvider.ssokit, ["saml", "verify", path] + Self.common + store, timeout: 60)
    }

    /// Two assertions of one IdP are accepted, each a second time is replay_detected.
    private func checkReplays(_ store: [String]) async throws {
        let first = try await verify("benchmark-7kb-valid", store)
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        #expect(first.json?["assertion_id"] as? String == "_assert-benchmark-7kb-valid")
        let other = try await verify("assertion-signed-rsa-sha256-valid", store)
        #expect(other.status == 0, "a second assertion of the same IdP: \(other.stdout) \(other.stderr)")
        for response in ["benchmark-7kb-valid", "assertion-signed-rsa-sha256-valid"] {
            let replay = try await verify(response, store)
            #expect(replay.status == 1)
            #expect(replay.json?["error"] as? String == "replay_detected", "\(replay.stdout)")
        }
    }

    @Test func replayAcrossCallsOnSQLite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-saml-replay-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await checkReplays(["--cache", folder.path])
        // Without a store nothing is recorded: the contract's behaviour when neither flag is given.
        await #expect(try verify("benchmark-7kb-valid", []).status == 0)
    }

    @Test func replayAcrossCallsOnPostgres() async throws {
        try await PostgresTestServer.withDatabase { url in try await checkReplays(["--postgres", url]) }
    }

    @Test func storeFlagsExcludeEachOtherAndAnUnreachableStoreIsReported() async throws {
        let both = try await verify(
            "benchmark-7kb-valid", ["--cache", "/tmp/x", "--postgres", "postgres://u@127.0.0.1/x"])
        #expect(both.status == 64)
        let unreachable = try await verify("benchmark-7kb-valid", ["--postgres", "postgres://nobody@127.0.0.1:1/none"])
        #expect(unreachable.status == 1)
        #expect(unreachable.json?["error"] as? String == "store_unavailable", "\(unreachable.stdout)")
    }
}
