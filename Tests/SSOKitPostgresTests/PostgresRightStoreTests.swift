import Crypto
import Foundation
import PostgresTestSupport
import SSOKitPostgres
import SSOKitRights
import SSOKitTokenCache
import Testing

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
