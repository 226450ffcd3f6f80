import Foundation
import Logging
import SSOKitConformance
import SSOKitExtension
import SSOKitStore
import SSOKitTokenCache
import Synchronization
import Testing

@testable import SSOKitHummingbird

/// A store that can be told to refuse new one-time values: a store hiccup at the worst moment.
final class HiccupStore: TokenCacheStore {
    let inner = InMemoryTokenCacheStore()
    let refusing = Mutex(false)

    func row(for key: String) async throws(TokenCacheError) -> StoredRow? { try await inner.row(for: key) }
    func update(key: String, _ body: @Sendable (StoredRow?) async throws -> StoredRow?) async throws -> StoredRow? {
        try await inner.update(key: key, body)
    }
    func delete(key: String) async throws(TokenCacheError) { try await inner.delete(key: key) }
    func rows(application: String) async throws(TokenCacheError) -> [StoredRow] {
        try await inner.rows(application: application)
    }
    func deleteExpired(before date: Date, application: String?) async throws(TokenCacheError) -> Int {
        try await inner.deleteExpired(before: date, application: application)
    }
    func insertOnce(namespace: String, id: String, value: [UInt8], expiresAt: Date, now: Date)
        async throws(TokenCacheError) -> Bool
    {
        if refusing.withLock({ $0 }) { throw TokenCacheError(.capacityExceeded, "refusing for the test") }
        return try await inner.insertOnce(namespace: namespace, id: id, value: value, expiresAt: expiresAt, now: now)
    }
    func takeOnce(namespace: String, id: String, now: Date) async throws(TokenCacheError) -> [UInt8]? {
        try await inner.takeOnce(namespace: namespace, id: id, now: now)
    }
}

/// The owner records of pending interactions: a wrong owner never touches the real record, each caller has a cap
/// on live interactions, and expired records are purged.
@Suite struct InteractionOwnersTests {
    let clock = AdjustableClock()

    func interaction(_ n: Int, lifetime: TimeInterval = 600) -> Interaction {
        Interaction(
            id: "interaction-\(n)-AAAAAAAAAAAA", kind: .credentials(fields: []),
            expiresAt: clock.now.addingTimeInterval(lifetime))
    }

    @Test func aWrongOwnersClaimNeverTouchesTheOwnersRecord() async throws {
        let store = HiccupStore()
        let owners = InteractionOwners(cache: TokenCache(store: store, key: .generate(), clock: clock), clock: clock)
        let pending = interaction(1)
        #expect(await owners.record(pending, owner: "uid:1000"))
        // From now on the store takes nothing new: a claim that took the record and put it back would lose it.
        store.refusing.withLock { $0 = true }
        for _ in 0..<3 { #expect(await !owners.claim(pending.id, by: "uid:1001")) }
        #expect(await !owners.claim(pending.id, by: "browser:guess"))
        #expect(await owners.claim(pending.id, by: "uid:1000"))
        #expect(await !owners.claim(pending.id, by: "uid:1000"))
    }

    @Test func eachCallerHasACapOnLiveInteractions() async throws {
        let cache = TokenCache(store: InMemoryTokenCacheStore(), key: .generate(), clock: clock)
        let owners = InteractionOwners(cache: cache, clock: clock, maximumPendingPerCaller: 2)
        #expect(await owners.record(interaction(1), owner: "uid:1000"))
        #expect(await owners.record(interaction(2, lifetime: 60), owner: "uid:1000"))
        #expect(await !owners.hasRoom(for: "uid:1000"))
        #expect(await !owners.record(interaction(3), owner: "uid:1000"))
        #expect(await owners.hasRoom(for: "uid:1001"))
        // Every browser flow counts as the one caller "browser".
        #expect(await owners.record(interaction(4), owner: "browser:a"))
        #expect(await owners.record(interaction(5), owner: "browser:b"))
        #expect(await !owners.hasRoom(for: "browser:c"))
        // Resumed or expired, an interaction no longer counts.
        #expect(await owners.claim(interaction(1).id, by: "uid:1000"))
        #expect(await owners.hasRoom(for: "uid:1000"))
        #expect(await owners.record(interaction(6), owner: "uid:1000"))
        #expect(await !owners.hasRoom(for: "uid:1000"))
        clock.advance(120)
        #expect(await owners.hasRoom(for: "uid:1000"))
    }

    @Test func thePurgeServiceRemovesExpiredOneTimeValues() async throws {
        let store = InMemoryTokenCacheStore()
        let cache = TokenCache(store: store, key: .generate(), clock: clock)
        let owners = InteractionOwners(cache: cache, clock: clock)
        let pending = interaction(1, lifetime: 60)
        #expect(await owners.record(pending, owner: "uid:1000"))
        #expect(try await cache.putOneTime([1, 2, 3], namespace: "ssokit-interaction", id: pending.id, lifetime: 60))
        #expect(try await cache.putOneTime([4], namespace: "ssokit-interaction", id: "live", lifetime: 3600))
        clock.advance(120)
        let service = CachePurgeService(
            cache: cache, interval: .milliseconds(10),
            logger: .init(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await service.run() }
        defer { running.cancel() }
        // Inserting "as of" the start succeeds only once the expired value is gone (else it is still live then).
        let past = Date(timeIntervalSince1970: 0)
        var purged = false
        for _ in 0..<500 where !purged {
            purged = try await store.insertOnce(
                namespace: "ssokit-interaction", id: pending.id, value: [9], expiresAt: past.addingTimeInterval(1),
                now: past)
            if !purged { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(purged)
        #expect(try await cache.takeOneTime(namespace: "ssokit-interaction", id: "live") == [4])
    }
}
