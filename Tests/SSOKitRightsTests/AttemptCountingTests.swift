import Crypto
import Foundation
import SSOKitCore
import SSOKitTesting
import Testing

@testable import SSOKitRights
@testable import SSOKitStore

/// A custom evaluator that holds its answers until the test lets them go, and counts how often it was asked.
private final class HeldEvaluator: Sendable {
    let answer: Bool
    private let released = AsyncLatch()
    private let calls = CallCounter()

    init(answer: Bool) { self.answer = answer }

    var requirement: CustomRequirement {
        CustomRequirement(name: "approve") { _ in
            _ = self.calls.increment()
            await self.released.wait()
            return self.answer
        }
    }

    var asked: Int { calls.value }

    func release() { released.open() }
}

@Suite("Attempt counting")
struct AttemptCountingTests {
    let deviceKey = SymmetricKey(size: .bits256)

    func sqlitePath() throws -> (directory: URL, path: String) {
        let directory = try temporaryDirectory()
        return (directory, directory.appendingPathComponent("cache.sqlite").path)
    }

    /// A right store on a connection of its own to `path`, as another process would have.
    func rightStore(_ path: String, _ policy: RightAttemptPolicy = .standard) throws -> RightStore {
        try RightStore(records: try SQLiteTokenCacheStore(path: path), deviceKey: deviceKey, attemptPolicy: policy)
    }

    /// Persists a right whose passphrase is `good-pass` under `identifier`.
    @discardableResult
    func persistPassphraseRight(_ identifier: String, in store: RightStore) async throws -> PersistedRight {
        let requirement = try PassphraseRequirement(label: "p", passphrase: "good-pass", cost: .minimumForTests)
        return try await store.persist(
            try Right(requirement: .passphrase(requirement), authenticator: FixedAuthenticator(answer: "bad")),
            identifier: identifier)
    }

    @Test("an attempt is counted in the store before anything is evaluated, so a second process gets no free try")
    func countedBeforeEvaluation() async throws {
        let (directory, path) = try sqlitePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // No free attempt: every failure starts a one-minute backoff.
        let policy = RightAttemptPolicy(freeAttempts: 0, baseDelay: 60, maximumDelay: 60, attemptLimit: 10)
        let first = try rightStore(path, policy)
        let second = try rightStore(path, policy)
        let held = HeldEvaluator(answer: false)
        _ = try await first.persist(
            try Right(requirement: .custom(held.requirement), authenticator: ScriptedAuthenticator([])),
            identifier: "approval")

        let guessing = try await first.right(
            forIdentifier: "approval", authenticator: ScriptedAuthenticator([]), customRequirements: [held.requirement])
        let attempt = Task { try await guessing.authorize(localizedReason: "first process") }
        for _ in 0..<500 where held.asked == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(held.asked == 1)
        // While the first attempt is being evaluated, the other process already sees it counted...
        #expect(try await second.summary(forIdentifier: "approval").failedAttempts == 1)
        // ...and its own attempt is refused without asking anything.
        let approving = HeldEvaluator(answer: true)
        approving.release()
        let other = try await second.right(
            forIdentifier: "approval", authenticator: ScriptedAuthenticator([]),
            customRequirements: [approving.requirement])
        await #expect(throws: RightError(.lockedOut, "")) { try await other.authorize(localizedReason: "second") }
        #expect(approving.asked == 0)

        held.release()
        await #expect(throws: RightError(.authorizationDenied, "")) { try await attempt.value }
        #expect(try await second.summary(forIdentifier: "approval").failedAttempts == 1)
    }

    @Test("many processes guessing at once: every attempt is counted, none beyond the limit is evaluated")
    func concurrentGuessesStopAtTheLimit() async throws {
        let (directory, path) = try sqlitePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = RightAttemptPolicy(freeAttempts: 3, baseDelay: 60, maximumDelay: 60, attemptLimit: 3)
        let setup = try rightStore(path)
        let held = HeldEvaluator(answer: false)
        _ = try await setup.persist(
            try Right(requirement: .custom(held.requirement), authenticator: ScriptedAuthenticator([])),
            identifier: "guessed")
        // Eight "processes" (a store each) try at once while every evaluation is held open.
        let outcomes = try await withThrowingTaskGroup(of: RightError.Code?.self) { group in
            for index in 0..<8 {
                let right = try await rightStore(path, policy).right(
                    forIdentifier: "guessed", authenticator: ScriptedAuthenticator([]),
                    customRequirements: [held.requirement])
                group.addTask {
                    do throws(RightError) {
                        try await right.authorize(localizedReason: "guess \(index)")
                        return nil
                    } catch {
                        return error.code
                    }
                }
            }
            // Let the evaluations go once the lock-outs have been decided.
            for _ in 0..<500 where held.asked < 3 { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(200))
            held.release()
            var codes: [RightError.Code?] = []
            for try await code in group { codes.append(code) }
            return codes
        }
        #expect(held.asked == 3, "only the attempts within the limit were evaluated")
        #expect(outcomes.filter { $0 == .authorizationDenied }.count == 3)
        #expect(outcomes.filter { $0 == .lockedOut }.count == 5)
        #expect(try await setup.summary(forIdentifier: "guessed").failedAttempts == 3)
    }

    @Test("counters reset by editing the database are detected: the right then refuses every attempt")
    func editedCountersAreRefused() async throws {
        let (directory, path) = try sqlitePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = RightAttemptPolicy(freeAttempts: 3, baseDelay: 1, maximumDelay: 1, attemptLimit: 3)
        let store = try rightStore(path, policy)
        let wrong = try await persistPassphraseRight("vault", in: store)
        for _ in 0..<3 {
            await #expect(throws: RightError(.authorizationDenied, "")) {
                try await wrong.authorize(localizedReason: "t")
            }
        }
        await #expect(throws: RightError(.lockedOut, "")) { try await wrong.authorize(localizedReason: "t") }

        // Someone with write access to the file resets the counters.
        try SQLiteConnection(path: path).query(
            "UPDATE rights SET failed_attempts = 0, locked_until = NULL WHERE identifier = ?", [.text("vault")])
        let asked = ScriptedAuthenticator(["good-pass"])
        let owner = try await store.right(forIdentifier: "vault", authenticator: asked)
        await #expect(throws: RightError(.recordUnreadable, "")) { try await owner.authorize(localizedReason: "t") }
        #expect(asked.requests.isEmpty, "nothing is asked while the counters do not verify")
        #expect(owner.state == .notAuthorized)
    }

    @Test("counters copied from another right, or from an earlier right under the same identifier, do not verify")
    func copiedCountersAreRefused() async throws {
        let (directory, path) = try sqlitePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = RightAttemptPolicy(freeAttempts: 0, baseDelay: 600, maximumDelay: 600, attemptLimit: 10)
        let sqlite = try SQLiteTokenCacheStore(path: path)
        let store = try RightStore(records: sqlite, deviceKey: deviceKey, attemptPolicy: policy)
        let locked = try await persistPassphraseRight("locked", in: store)
        try await persistPassphraseRight("fresh", in: store)
        await #expect(throws: RightError(.authorizationDenied, "")) { try await locked.authorize(localizedReason: "t") }
        await #expect(throws: RightError(.lockedOut, "")) { try await locked.authorize(localizedReason: "t") }

        // The untouched counters of "fresh", tag included, written over those of "locked".
        let copy = try #require(try await sqlite.right(identifier: "fresh")).attempts
        #expect(copy.failedAttempts == 0 && copy.tag.count == 32)
        try SQLiteConnection(path: path).query(
            "UPDATE rights SET failed_attempts = ?, locked_until = NULL, attempts_tag = ? WHERE identifier = ?",
            [.integer(0), .blob(copy.tag), .text("locked")])
        let owner = try await store.right(
            forIdentifier: "locked", authenticator: FixedAuthenticator(answer: "good-pass"))
        await #expect(throws: RightError(.recordUnreadable, "")) { try await owner.authorize(localizedReason: "t") }

        // The earlier right's fresh counters, kept when it is deleted and another is created under its identifier.
        try await store.removeRight(forIdentifier: "fresh")
        try await persistPassphraseRight("fresh", in: store)
        try SQLiteConnection(path: path).query(
            "UPDATE rights SET failed_attempts = 0, locked_until = NULL, attempts_tag = ? WHERE identifier = ?",
            [.blob(copy.tag), .text("fresh")])
        let again = try await store.right(
            forIdentifier: "fresh", authenticator: FixedAuthenticator(answer: "good-pass"))
        await #expect(throws: RightError(.recordUnreadable, "")) { try await again.authorize(localizedReason: "t") }
    }

    @Test("a success resets the counters with a valid tag; a wrong device key is refused before anything is asked")
    func successResetsAndDeviceKeyMatters() async throws {
        let (directory, path) = try sqlitePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = try SQLiteTokenCacheStore(path: path)
        let store = try RightStore(records: records, deviceKey: deviceKey)
        try await persistPassphraseRight("r", in: store)
        let right = try await store.right(
            forIdentifier: "r", authenticator: ScriptedAuthenticator(["bad", "good-pass", "good-pass"]))
        await #expect(throws: RightError(.authorizationDenied, "")) { try await right.authorize(localizedReason: "t") }
        #expect(try await store.summary(forIdentifier: "r").failedAttempts == 1)
        try await right.authorize(localizedReason: "t")
        #expect(try await store.summary(forIdentifier: "r").failedAttempts == 0)
        right.deauthorize()
        try await right.authorize(localizedReason: "t")

        let asked = ScriptedAuthenticator(["good-pass"])
        let elsewhere = try await RightStore(records: records, deviceKey: SymmetricKey(size: .bits256))
            .right(forIdentifier: "r", authenticator: asked)
        await #expect(throws: RightError(.recordUnreadable, "")) { try await elsewhere.authorize(localizedReason: "t") }
        #expect(asked.requests.isEmpty)
        #expect(try await store.summary(forIdentifier: "r").failedAttempts == 0)
    }

    @Test("the stored check value confirms no passphrase guess without the device key")
    func noOfflineCheck() async throws {
        let (directory, path) = try sqlitePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try SQLiteTokenCacheStore(path: path)
        let store = try RightStore(records: sqlite, deviceKey: deviceKey)
        try await persistPassphraseRight("vault", in: store)

        // What a thief of the database has: the salt, the cost and the check value of the requirement.
        let stored = try #require(try await sqlite.right(identifier: "vault"))
        let record = try RightRecord(decoding: stored.record)
        guard case .passphrase(_, let salt, let cost, let check) = record.requirement else {
            Issue.record("expected a passphrase requirement")
            return
        }
        // The offline test of a guess: scrypt it with the stored salt and cost, then compare with the check.
        let guess = try PassphraseRequirement.derive("good-pass", salt: salt, cost: cost)
        let guessBytes = guess.withUnsafeBytes { Array($0) }
        let published = Array(
            HMAC<SHA256>.authenticationCode(for: Array("ssokit-right-passphrase-check-v1".utf8), using: guess))
        #expect(check != published, "the right guess is confirmed by the stored check alone")
        #expect(check != guessBytes)
        #expect(!stored.record.contains(run: guessBytes))
        // The owner, who has the device key, still gets in.
        let owner = try await store.right(
            forIdentifier: "vault", authenticator: FixedAuthenticator(answer: "good-pass"))
        try await owner.authorize(localizedReason: "t")
        #expect(owner.state == .authorized)
    }
}
