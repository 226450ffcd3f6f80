import Crypto
import Foundation
import SSOKitConformance
import Testing

@testable import SSOKitRights
@testable import SSOKitStore

/// A database written before rights records version 2 (`fixtures/rights/schema-v2`, SQLite schema 2).
@Suite("Rights written by an earlier SSOKit")
struct LegacyRecordTests {
    /// A copy of the fixture database and its device key.
    func legacyStore() throws -> (directory: URL, path: String, deviceKey: SymmetricKey) {
        let fixture = try #require(FixtureLoader.fixturesDirectory()).appendingPathComponent("rights/schema-v2")
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("cache.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("cache.sqlite").path, toPath: path)
        let keyText = try String(contentsOf: fixture.appendingPathComponent("device.key"), encoding: .utf8)
        let key = try #require(Data(base64Encoded: keyText.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (directory, path, SymmetricKey(data: key))
    }

    func userVersion(_ path: String) throws -> Int? {
        guard case .integer(let version) = try SQLiteConnection(path: path).query("PRAGMA user_version").first?.first
        else { return nil }
        return Int(version)
    }

    @Test("the database migrates to the current schema; its right is listed as outdated and refused as record_outdated")
    func outdatedRecordIsRefused() async throws {
        let (directory, path, deviceKey) = try legacyStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try userVersion(path) == 2)
        let store = try RightStore(records: try SQLiteTokenCacheStore(path: path), deviceKey: deviceKey)
        #expect(try userVersion(path) == SQLiteTokenCacheStore.schemaVersion)

        #expect(try await store.identifiers() == ["legacy.device"])
        let summary = try await store.summary(forIdentifier: "legacy.device")
        #expect(summary.isOutdated)
        #expect(summary.hasSecret)
        #expect(summary.requirement == "passphrase(legacy.device)")
        let asked = ScriptedAuthenticator(["legacy passphrase"])
        do {
            _ = try await store.right(forIdentifier: "legacy.device", authenticator: asked)
            Issue.record("an outdated record was opened")
        } catch {
            #expect(error.code == .recordOutdated)
            #expect(error.reason.contains("delete it and create it again"))
        }
        #expect(asked.requests.isEmpty)

        // The way out: delete it and create it again, under the same identifier.
        try await store.removeRight(forIdentifier: "legacy.device")
        let right = try Right(
            requirement: .passphrase(
                try PassphraseRequirement(label: "device", passphrase: "new pass", cost: .minimumForTests)),
            authenticator: FixedAuthenticator(answer: "new pass"))
        let recreated = try await store.persist(right, identifier: "legacy.device", secret: [9])
        try await recreated.authorize(localizedReason: "t")
        #expect(try recreated.secret() == [9])
        #expect(try await !store.summary(forIdentifier: "legacy.device").isOutdated)
    }

    @Test("the outdated record is the one the earlier code wrote: its check confirms the passphrase offline")
    func fixtureIsTheWeakFormat() async throws {
        let (directory, path, _) = try legacyStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stored = try #require(try await SQLiteTokenCacheStore(path: path).right(identifier: "legacy.device"))
        let record = try RightRecord(decoding: stored.record)
        #expect(record.version == 1)
        guard case .passphrase(_, let salt, let cost, let check) = record.requirement else {
            Issue.record("expected a passphrase requirement")
            return
        }
        let guess = try PassphraseRequirement.derive("legacy passphrase", salt: salt, cost: cost)
        #expect(PassphraseCheck.inMemory.value(for: guess) == check)
    }
}
