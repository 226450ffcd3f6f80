import Crypto
import Foundation
import JWTKit
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitStore
import SSOKitTokenCache
import Testing

@testable import SSOKitRights

@Suite("Persisted rights")
struct PersistedRightTests {
    let cost = PassphraseCost.minimumForTests
    let deviceKey = SymmetricKey(size: .bits256)
    let secret = Array("cache-key-0123456789abcdef-SECRET".utf8)

    func passphraseRight(_ passphrase: String = "open sesame") throws -> Right {
        try Right(
            requirement: .passphrase(try PassphraseRequirement(label: "vault", passphrase: passphrase, cost: cost)),
            authenticator: FixedAuthenticator(answer: passphrase))
    }

    @Test("public-key operations work unauthorized; private ones and the secret only while authorized")
    func keyGating() async throws {
        let store = try RightStore(records: InMemoryTokenCacheStore(), deviceKey: deviceKey)
        let persisted = try await store.persist(try passphraseRight(), identifier: "com.example.vault", secret: secret)
        #expect(persisted.state == .unknown)
        #expect(persisted.publicKey.x963Representation.count == 65)
        #expect(persisted.publicKey.pemRepresentation.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let message = try persisted.publicKey.encrypt(Array("to the right".utf8), info: Array("ctx".utf8))

        #expect(throws: RightError(.notAuthorized, "")) { try persisted.privateKey.challengeSignature(for: [1, 2, 3]) }
        #expect(throws: RightError(.notAuthorized, "")) {
            try persisted.privateKey.decrypt(message, info: Array("ctx".utf8))
        }
        #expect(throws: RightError(.notAuthorized, "")) { try persisted.secret() }
        let peer = P256.KeyAgreement.PrivateKey()
        #expect(throws: RightError(.notAuthorized, "")) {
            try persisted.privateKey.sharedKey(with: Array(peer.publicKey.x963Representation))
        }

        try await persisted.authorize(localizedReason: "use the key")
        let data = Array("payload".utf8)
        let signature = try persisted.privateKey.challengeSignature(for: data)
        #expect(persisted.publicKey.isValidChallengeSignature(signature, for: data))
        #expect(!persisted.publicKey.isValidChallengeSignature(signature, for: Array("other".utf8)))
        #expect(try persisted.privateKey.decrypt(message, info: Array("ctx".utf8)) == Array("to the right".utf8))
        #expect(throws: RightError(.cryptoFailure, "")) {
            try persisted.privateKey.decrypt(message, info: Array("x".utf8))
        }
        #expect(try persisted.secret() == secret)

        // Both sides of ECDH agree.
        let ours = try persisted.privateKey.sharedKey(with: Array(peer.publicKey.x963Representation), info: [7])
        let rightPublic = try P256.KeyAgreement.PublicKey(x963Representation: persisted.publicKey.x963Representation)
        let theirs = try peer.sharedSecretFromKeyAgreement(with: rightPublic).hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: [UInt8](), sharedInfo: [7], outputByteCount: 32)
        #expect(ours == theirs)

        persisted.deauthorize()
        #expect(throws: RightError(.notAuthorized, "")) { try persisted.secret() }
        #expect(throws: RightError(.notAuthorized, "")) { try persisted.privateKey.challengeSignature(for: data) }
    }

    @Test("a right persisted in SQLite is loaded by a later store, authorized, and yields the same key and secret")
    func sqliteRoundTrip() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cache.sqlite").path
        let first = try RightStore(records: try SQLiteTokenCacheStore(path: path), deviceKey: deviceKey)
        let created = try await first.persist(try passphraseRight(), identifier: "cli.cache-key", secret: secret)
        await #expect(throws: RightError(.alreadyExists, "")) {
            try await first.persist(try passphraseRight(), identifier: "cli.cache-key")
        }
        await #expect(throws: RightError(.invalidIdentifier, "")) {
            try await first.persist(try passphraseRight(), identifier: "no spaces allowed")
        }

        let second = try RightStore(records: try SQLiteTokenCacheStore(path: path), deviceKey: deviceKey)
        #expect(try await second.identifiers() == ["cli.cache-key"])
        let summary = try await second.summary(forIdentifier: "cli.cache-key")
        #expect(summary.requirement == "passphrase(vault)")
        #expect(summary.hasSecret)
        let loaded = try await second.right(
            forIdentifier: "cli.cache-key", authenticator: FixedAuthenticator(answer: "open sesame"))
        #expect(loaded.publicKey == created.publicKey)
        try await loaded.authorize(localizedReason: "read the cache key")
        #expect(try loaded.secret() == secret)

        let wrongDevice = try RightStore(
            records: try SQLiteTokenCacheStore(path: path), deviceKey: SymmetricKey(size: .bits256))
        let elsewhere = try await wrongDevice.right(
            forIdentifier: "cli.cache-key", authenticator: FixedAuthenticator(answer: "open sesame"))
        await #expect(throws: RightError(.recordUnreadable, "")) { try await elsewhere.authorize(localizedReason: "t") }

        try await second.removeRight(forIdentifier: "cli.cache-key")
        await #expect(throws: RightError(.notFound, "")) {
            try await second.right(forIdentifier: "cli.cache-key", authenticator: FixedAuthenticator(answer: "x"))
        }
        await #expect(throws: RightError(.notFound, "")) {
            try await second.removeRight(forIdentifier: "cli.cache-key")
        }
    }

    @Test("the raw rows reveal neither the secret nor the private key, and the device key alone opens no slot")
    func rawRows() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cache.sqlite").path
        let sqlite = try SQLiteTokenCacheStore(path: path)
        let store = try RightStore(records: sqlite, deviceKey: deviceKey)
        let persisted = try await store.persist(try passphraseRight(), identifier: "raw", secret: secret)
        try await persisted.authorize(localizedReason: "t")
        let signature = try persisted.privateKey.challengeSignature(for: [1])
        #expect(persisted.publicKey.isValidChallengeSignature(signature, for: [1]))

        let stored = try #require(try await sqlite.right(identifier: "raw"))
        let record = try RightRecord(decoding: stored.record)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).map {
            Array(try Data(contentsOf: directory.appendingPathComponent($0)))
        }
        for bytes in files + [stored.record] {
            #expect(!bytes.contains(run: secret))
            #expect(!bytes.contains(run: Array(Data(secret).base64EncodedString().utf8)))
        }
        let binding = try RightRecord.binding(
            identifier: "raw", requirement: record.requirement, publicKey: record.publicKey)
        let sealer = RightSlotSealer(deviceKey: RightDeviceKey(deviceKey))
        for (index, slot) in record.slots.enumerated() {
            #expect(sealer.open(slot.sealed, binding: binding, slot: index, passphraseKeys: []) == nil)
        }
        // With the passphrase-derived key the same slot opens: the test above is not vacuous.
        guard case .passphrase(_, let salt, let storedCost, _) = record.requirement else {
            Issue.record("expected a passphrase requirement")
            return
        }
        let derived = try PassphraseRequirement.derive("open sesame", salt: salt, cost: storedCost)
        let opened = try #require(
            sealer.open(record.slots[0].sealed, binding: binding, slot: 0, passphraseKeys: [derived]))
        #expect(try RightMaterial(encoded: opened).secret == secret)
    }

    @Test("requirements are immutable: a record edited in the database no longer opens")
    func immutableRequirements() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try SQLiteTokenCacheStore(path: directory.appendingPathComponent("cache.sqlite").path)
        let store = try RightStore(records: sqlite, deviceKey: deviceKey)
        _ = try await store.persist(try passphraseRight(), identifier: "locked", secret: secret)

        // An attacker with write access swaps the passphrase for a custom requirement they control.
        let stored = try #require(try await sqlite.right(identifier: "locked"))
        var record = try RightRecord(decoding: stored.record)
        record.requirement = .custom(name: "attacker")
        try await sqlite.overwriteRightRecord(identifier: "locked", with: try record.encoded())
        let loaded = try await store.right(
            forIdentifier: "locked", authenticator: FixedAuthenticator(answer: ""),
            customRequirements: [CustomRequirement(name: "attacker") { _ in true }])
        await #expect(throws: RightError(.recordUnreadable, "")) { try await loaded.authorize(localizedReason: "t") }
        #expect(throws: RightError(.notAuthorized, "")) { try loaded.secret() }

        try await sqlite.overwriteRightRecord(identifier: "locked", with: Array("{not json".utf8))
        await #expect(throws: RightError(.recordUnreadable, "")) {
            try await store.right(forIdentifier: "locked", authenticator: FixedAuthenticator(answer: ""))
        }
    }

    @Test("custom requirements are supplied again by name on load; a missing one is invalid_requirement")
    func customOnLoad() async throws {
        let records = InMemoryTokenCacheStore()
        let store = try RightStore(records: records, deviceKey: deviceKey)
        let approve = CustomRequirement(name: "approve") { _ in true }
        let right = try Right(
            requirement: .anyOf([
                .custom(approve),
                .passphrase(try PassphraseRequirement(label: "fallback", passphrase: "pw-123", cost: cost)),
            ]), authenticator: ScriptedAuthenticator([]))
        _ = try await store.persist(right, identifier: "approval", secret: [42])
        await #expect(throws: RightError(.invalidRequirement, "")) {
            try await store.right(forIdentifier: "approval", authenticator: ScriptedAuthenticator([]))
        }
        let denyingEvaluator = try await store.right(
            forIdentifier: "approval", authenticator: ScriptedAuthenticator(["pw-123"]),
            customRequirements: [CustomRequirement(name: "approve") { _ in false }])
        try await denyingEvaluator.authorize(localizedReason: "t")
        #expect(try denyingEvaluator.secret() == [42])
        let approving = try await store.right(
            forIdentifier: "approval", authenticator: ScriptedAuthenticator([]), customRequirements: [approve])
        try await approving.authorize(localizedReason: "t")
        #expect(try approving.secret() == [42])

        let decoded = try RightRecord(decoding: try #require(try await records.right(identifier: "approval")).record)
        let rebuilt = try decoded.requirement.requirement(custom: ["approve": approve])
        await #expect(throws: RightError(.invalidRequirement, "")) {
            try await store.persist(
                try Right(requirement: rebuilt, authenticator: ScriptedAuthenticator([])), identifier: "copy")
        }
    }

    @Test("failed attempts of a persisted right are kept in the store and reset by a success")
    func persistedAttempts() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cache.sqlite").path
        let clock = AdjustableClock()
        let policy = RightAttemptPolicy(freeAttempts: 1, baseDelay: 30, maximumDelay: 60, attemptLimit: 10)
        let store = try RightStore(
            records: try SQLiteTokenCacheStore(path: path), deviceKey: deviceKey, attemptPolicy: policy, clock: clock)
        _ = try await store.persist(try passphraseRight("good-pass"), identifier: "counted")
        let bad = try await store.right(forIdentifier: "counted", authenticator: FixedAuthenticator(answer: "bad"))
        await #expect(throws: RightError(.authorizationDenied, "")) { try await bad.authorize(localizedReason: "t") }
        await #expect(throws: RightError(.authorizationDenied, "")) { try await bad.authorize(localizedReason: "t") }

        // Another process (a new store on the same file) sees the backoff.
        let reopened = try RightStore(
            records: try SQLiteTokenCacheStore(path: path), deviceKey: deviceKey, attemptPolicy: policy, clock: clock)
        let good = try await reopened.right(
            forIdentifier: "counted", authenticator: FixedAuthenticator(answer: "good-pass"))
        await #expect(throws: RightError(.lockedOut, "")) { try await good.authorize(localizedReason: "t") }
        #expect(try await reopened.summary(forIdentifier: "counted").failedAttempts == 2)
        clock.advance(31)
        try await good.authorize(localizedReason: "t")
        #expect(try await reopened.summary(forIdentifier: "counted").failedAttempts == 0)
    }

    @Test("the right's key signs private_key_jwt assertions that jwt-kit verifies, and server challenges")
    func signing() async throws {
        let store = try RightStore(records: InMemoryTokenCacheStore(), deviceKey: deviceKey)
        let persisted = try await store.persist(try passphraseRight(), identifier: "client-key")
        let signer = RightClientAssertionSigner(right: persisted)
        let now = Date()
        let claims = ClientAssertionClaims(
            clientID: "client-1", audience: "https://idp.example/token", issuedAt: now,
            expiresAt: now.addingTimeInterval(60), jwtID: UUID().uuidString)
        await #expect(throws: RightError(.notAuthorized, "")) { try await signer.sign(claims) }
        try await persisted.authorize(localizedReason: "authenticate the client")
        let jwt = try await signer.sign(claims)

        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(pem: persisted.publicKey.pemRepresentation))
        let verified = try await keys.verify(jwt, as: JWTKitClientAssertion.self).claims
        #expect(verified.clientID == "client-1")
        #expect(verified.audience == "https://idp.example/token")
        let header = try #require(jwt.split(separator: ".").first.flatMap { Base64URL.decode(String($0)) })
        let headerJSON = try #require(try JSONSerialization.jsonObject(with: Data(header)) as? [String: String])
        #expect(headerJSON["alg"] == "ES256")
        #expect(headerJSON["kid"] == persisted.publicKey.thumbprint)

        // A server challenge: the server keeps only the exported DER public key and knows the context.
        let challenge = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let answer = try persisted.privateKey.challengeSignature(for: challenge)
        let serverKey = try P256.Signing.PublicKey(derRepresentation: persisted.publicKey.derRepresentation)
        let parsed = try P256.Signing.ECDSASignature(rawRepresentation: answer)
        #expect(serverKey.isValidSignature(parsed, for: Array("ssokit-right-challenge-v1".utf8) + [0] + challenge))
        #expect(!serverKey.isValidSignature(parsed, for: challenge))
    }

    @Test(
        "the public JWK holds exactly crv, kty, x and y; the thumbprint is 43 characters; a short device key is refused"
    )
    func jwkShape() async throws {
        let store = try RightStore(records: InMemoryTokenCacheStore(), deviceKey: deviceKey)
        let persisted = try await store.persist(try passphraseRight(), identifier: "jwk")
        let jwk = try #require(
            try JSONSerialization.jsonObject(with: Data(persisted.publicKey.jwk.utf8)) as? [String: String])
        #expect(Array(jwk.keys).sorted() == ["crv", "kty", "x", "y"])
        #expect(persisted.publicKey.thumbprint.count == 43)
        #expect(throws: RightError(.invalidRequirement, "")) {
            try RightStore(records: InMemoryTokenCacheStore(), deviceKey: SymmetricKey(size: .bits128))
        }
    }
}
