import Crypto
import Foundation
import PostgresNIO
import PostgresTestSupport
import SSOKitConformance
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache
import Testing

@testable import SSOKitPostgres

/// Answers every passphrase prompt with one value.
private struct Answer: RightAuthenticator {
    let passphrase: String
    func passphrase(for request: PassphraseRequest) async -> String? { passphrase }
}

@Suite("RightStore on PostgreSQL", .timeLimit(.minutes(5)))
struct PostgresRightStoreTests {
    @Test("a right persisted by one connection is authorized through another; attempts are shared; delete removes it")
    func persistedAcrossConnections() async throws {
        try await PostgresTestServer.withStore { (store, url) async throws in
            let deviceKey = SymmetricKey(size: .bits256)
            let policy = RightAttemptPolicy(freeAttempts: 1, baseDelay: 600, maximumDelay: 600, attemptLimit: 5)
            let rights = try RightStore(records: store, deviceKey: deviceKey, attemptPolicy: policy)
            let right = try Right(
                requirement: .passphrase(
                    try PassphraseRequirement(label: "vault", passphrase: "pg pass", cost: .minimumForTests)),
                authenticator: Answer(passphrase: "pg pass"))
            let secret = Array("postgres-held-secret".utf8)
            let created = try await rights.persist(right, identifier: "pg.vault", secret: secret)
            await #expect(throws: RightError(.alreadyExists, "")) {
                try await rights.persist(right, identifier: "pg.vault")
            }

            let other = try await PostgresTokenCacheStore.connect(url: url)
            do {
                let elsewhere = try RightStore(records: other, deviceKey: deviceKey, attemptPolicy: policy)
                #expect(try await elsewhere.identifiers() == ["pg.vault"])
                let loaded = try await elsewhere.right(
                    forIdentifier: "pg.vault", authenticator: Answer(passphrase: "pg pass"))
                #expect(loaded.publicKey == created.publicKey)
                try await loaded.authorize(localizedReason: "test")
                #expect(try loaded.secret() == secret)

                // Two wrong attempts through the first connection start a backoff the second one sees.
                let wrong = try await rights.right(forIdentifier: "pg.vault", authenticator: Answer(passphrase: "no"))
                for _ in 0..<2 {
                    await #expect(throws: RightError(.authorizationDenied, "")) {
                        try await wrong.authorize(localizedReason: "test")
                    }
                }
                let again = try await elsewhere.right(
                    forIdentifier: "pg.vault", authenticator: Answer(passphrase: "pg pass"))
                await #expect(throws: RightError(.lockedOut, "")) { try await again.authorize(localizedReason: "test") }
                #expect(try await elsewhere.summary(forIdentifier: "pg.vault").failedAttempts == 2)

                // The raw record holds neither the secret nor its base64.
                let raw = try #require(try await other.right(identifier: "pg.vault")).record
                #expect(String(decoding: raw, as: UTF8.self).contains("postgres-held-secret") == false)
                #expect(
                    String(decoding: raw, as: UTF8.self).contains(Data(secret).base64EncodedString()) == false)

                try await elsewhere.removeRight(forIdentifier: "pg.vault")
                await #expect(throws: RightError(.notFound, "")) {
                    try await rights.right(forIdentifier: "pg.vault", authenticator: Answer(passphrase: "pg pass"))
                }
                await other.shutdown()
            } catch {
                await other.shutdown()
                throw error
            }
        }
    }
}

@Suite("Right attempt counters on PostgreSQL", .timeLimit(.minutes(5)))
struct PostgresRightAttemptTests {
    let deviceKey = SymmetricKey(size: .bits256)

    func passphraseRight(_ answer: String) throws -> Right {
        try Right(
            requirement: .passphrase(
                try PassphraseRequirement(label: "vault", passphrase: "pg pass", cost: .minimumForTests)),
            authenticator: Answer(passphrase: answer))
    }

    @Test("counters reset in the database are refused, and nothing is asked")
    func resetCountersAreRefused() async throws {
        try await PostgresTestServer.withStore { (store, url) async throws in
            let policy = RightAttemptPolicy(freeAttempts: 2, baseDelay: 600, maximumDelay: 600, attemptLimit: 2)
            let rights = try RightStore(records: store, deviceKey: deviceKey, attemptPolicy: policy)
            let wrong = try await rights.persist(try passphraseRight("no"), identifier: "pg.vault")
            for _ in 0..<2 {
                await #expect(throws: RightError(.authorizationDenied, "")) {
                    try await wrong.authorize(localizedReason: "test")
                }
            }
            await #expect(throws: RightError(.lockedOut, "")) { try await wrong.authorize(localizedReason: "test") }

            try await PostgresTestServer.execute(
                url, ["UPDATE ssokit_rights SET failed_attempts = 0, locked_until = NULL"])
            let owner = try await rights.right(forIdentifier: "pg.vault", authenticator: Answer(passphrase: "pg pass"))
            await #expect(throws: RightError(.recordUnreadable, "")) {
                try await owner.authorize(localizedReason: "test")
            }
            #expect(owner.state == .notAuthorized)
        }
    }

    @Test("guesses from several connections at once are each counted before evaluation; none passes the limit")
    func concurrentGuessesAcrossConnections() async throws {
        try await PostgresTestServer.withStore { (store, url) async throws in
            let policy = RightAttemptPolicy(freeAttempts: 3, baseDelay: 600, maximumDelay: 600, attemptLimit: 3)
            let rights = try RightStore(records: store, deviceKey: deviceKey, attemptPolicy: policy)
            _ = try await rights.persist(try passphraseRight("no"), identifier: "pg.guessed")
            var connections: [PostgresTokenCacheStore] = []
            for _ in 0..<6 { connections.append(try await PostgresTokenCacheStore.connect(url: url)) }
            let codes = await withTaskGroup(of: RightError.Code?.self) { group in
                for connection in connections {
                    group.addTask {
                        do throws(RightError) {
                            let store = try RightStore(records: connection, deviceKey: deviceKey, attemptPolicy: policy)
                            let right = try await store.right(
                                forIdentifier: "pg.guessed", authenticator: Answer(passphrase: "no"))
                            try await right.authorize(localizedReason: "guess")
                            return nil
                        } catch {
                            return error.code
                        }
                    }
                }
                var codes: [RightError.Code?] = []
                for await code in group { codes.append(code) }
                return codes
            }
            for connection in connections { await connection.shutdown() }
            #expect(codes.filter { $0 == .authorizationDenied }.count == 3)
            #expect(codes.filter { $0 == .lockedOut }.count == 3)
            #expect(try await rights.summary(forIdentifier: "pg.guessed").failedAttempts == 3)
        }
    }

    @Test("a database at schema 2 migrates to 3; its right from the earlier SSOKit is refused as record_outdated")
    func legacyDatabase() async throws {
        let fixture = try #require(FixtureLoader.fixturesDirectory()).appendingPathComponent("rights/schema-v2")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-pg-legacy-\(UUID()).sqlite")
        try FileManager.default.copyItem(at: fixture.appendingPathComponent("cache.sqlite"), to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let legacy = try #require(try await SQLiteTokenCacheStore(path: copy.path).right(identifier: "legacy.device"))
        let keyText = try String(contentsOf: fixture.appendingPathComponent("device.key"), encoding: .utf8)
        let deviceKey = SymmetricKey(
            data: try #require(Data(base64Encoded: keyText.trimmingCharacters(in: .whitespacesAndNewlines))))

        try await PostgresTestServer.withDatabase { (url) async throws in
            // The database exactly as the earlier SSOKit left it: migrations 1 and 2, and its right's row.
            var statements: [PostgresQuery] = [
                "CREATE TABLE ssokit_schema (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), version integer NOT NULL)",
                "INSERT INTO ssokit_schema (singleton, version) VALUES (true, 2)",
            ]
            for migration in PostgresSchema.migrations where migration.version <= 2 {
                statements += migration.statements
            }
            statements.append(
                """
                INSERT INTO ssokit_rights (identifier, record, failed_attempts, locked_until) \
                VALUES (\(legacy.identifier), \(ByteBuffer(bytes: legacy.record)), 0, NULL)
                """)
            try await PostgresTestServer.execute(url, statements)

            let store = try await PostgresTokenCacheStore.connect(url: url)
            do {
                let version = try await PostgresTestServer.execute(url, ["SELECT version FROM ssokit_schema"])
                #expect(try version.first?.decode(Int.self) == 3)
                let rights = try RightStore(records: store, deviceKey: deviceKey)
                #expect(try await rights.identifiers() == ["legacy.device"])
                #expect(try await rights.summary(forIdentifier: "legacy.device").isOutdated)
                await #expect(throws: RightError(.recordOutdated, "")) {
                    try await rights.right(
                        forIdentifier: "legacy.device", authenticator: Answer(passphrase: "legacy passphrase"))
                }
                try await rights.removeRight(forIdentifier: "legacy.device")
                let recreated = try await rights.persist(try passphraseRight("pg pass"), identifier: "legacy.device")
                try await recreated.authorize(localizedReason: "test")
                await store.shutdown()
            } catch {
                await store.shutdown()
                throw error
            }
        }
    }
}
