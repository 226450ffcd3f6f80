import Crypto
import Foundation
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache
import Synchronization
import Testing

/// A backend whose every call fails, as an unreachable database would.
private struct UnreachableRecords: RightRecordStore {
    var failure: TokenCacheError { TokenCacheError(.storeUnavailable, "the database is down") }
    func insertRight(_ record: StoredRightRecord) async throws(TokenCacheError) -> Bool { throw failure }
    func right(identifier: String) async throws(TokenCacheError) -> StoredRightRecord? { throw failure }
    func rightIdentifiers() async throws(TokenCacheError) -> [String] { throw failure }
    func deleteRight(identifier: String) async throws(TokenCacheError) -> Bool { throw failure }
    func updateAttempts(
        identifier: String, _ body: @Sendable (RightAttempts) -> RightAttempts
    ) async throws(TokenCacheError) -> RightAttempts? { throw failure }
}

/// A custom evaluator that answers only when the test lets it.
private final class Gate: Sendable {
    private let state = Mutex<(entered: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func evaluate() async -> Bool {
        await withCheckedContinuation { continuation in state.withLock { $0 = (true, continuation) } }
        return true
    }

    var entered: Bool { state.withLock { $0.entered } }

    func open() { state.withLock { $0.waiter }?.resume() }
}

@Suite("Right failures")
struct RightFailureTests {
    @Test("a second authorize while one runs is authorization_in_progress; the first still succeeds")
    func inProgress() async throws {
        let gate = Gate()
        let right = try Right(
            requirement: .custom(CustomRequirement(name: "gate") { _ in await gate.evaluate() }),
            authenticator: ScriptedAuthenticator([]))
        let first = Task { try await right.authorize(localizedReason: "first") }
        for _ in 0..<500 where !gate.entered { try await Task.sleep(for: .milliseconds(10)) }
        #expect(right.state == .authorizing)
        await #expect(throws: RightError(.authorizationInProgress, "")) {
            try await right.authorize(localizedReason: "second")
        }
        gate.open()
        try await first.value
        #expect(right.state == .authorized)
    }

    @Test("a right persisted without a secret is no_secret once authorized; a secret over 4 KiB is refused")
    func secrets() async throws {
        let store = try RightStore(records: InMemoryTokenCacheStore(), deviceKey: SymmetricKey(size: .bits256))
        let right = try Right(
            requirement: .custom(CustomRequirement(name: "ok") { _ in true }), authenticator: ScriptedAuthenticator([]))
        let persisted = try await store.persist(right, identifier: "no-secret")
        try await persisted.authorize(localizedReason: "t")
        #expect(throws: RightError(.noSecret, "")) { try persisted.secret() }
        await #expect(throws: RightError(.invalidRequirement, "")) {
            try await store.persist(right, identifier: "big", secret: Array(repeating: 1, count: 4097))
        }
    }

    @Test("an unreachable backend is store_unavailable for every RightStore call, and authorize fails closed")
    func unreachable() async throws {
        let store = try RightStore(records: UnreachableRecords(), deviceKey: SymmetricKey(size: .bits256))
        let right = try Right(
            requirement: .custom(CustomRequirement(name: "ok") { _ in true }), authenticator: ScriptedAuthenticator([]))
        await #expect(throws: RightError(.storeUnavailable, "")) { try await store.persist(right, identifier: "x") }
        await #expect(throws: RightError(.storeUnavailable, "")) { try await store.identifiers() }
        await #expect(throws: RightError(.storeUnavailable, "")) { try await store.removeRight(forIdentifier: "x") }
        await #expect(throws: RightError(.storeUnavailable, "")) { try await store.summary(forIdentifier: "x") }
        await #expect(throws: RightError(.storeUnavailable, "")) {
            try await store.right(forIdentifier: "x", authenticator: ScriptedAuthenticator([]))
        }
    }
}
