import Foundation
import PostgresNIO
import PostgresTestSupport
import SSOKitPostgres
import SSOKitStore
import SSOKitTokenCache
import Testing

@Suite("PostgresTokenCacheStore round trips", .timeLimit(.minutes(5)))
struct PostgresStoreRoundTripTests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)

    func row(_ key: String, app: String = "com.example.mail", sealed: [UInt8] = [1, 2, 3], expiresIn: Double? = 60)
        -> StoredRow
    {
        StoredRow(
            key: key, application: app, sealed: sealed, expiresAt: expiresIn.map { now.addingTimeInterval($0) },
            version: 0)
    }

    @Test("rows: insert, read back, version per write, unchanged writes nothing, nil and delete remove")
    func rows() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            #expect(try await store.row(for: "k") == nil)
            let first = try await store.update(key: "k") { current in
                #expect(current == nil)
                return row("other-key-ignored", expiresIn: 0.25)
            }
            #expect(first?.key == "k")
            #expect(first?.version == 1)
            let stored = try #require(try await store.row(for: "k"))
            #expect(stored == first)
            #expect(stored.expiresAt == now.addingTimeInterval(0.25))

            let unchanged = try await store.update(key: "k") { $0 }
            #expect(unchanged == stored)
            #expect(try await store.row(for: "k")?.version == 1)

            let second = try await store.update(key: "k") { current in
                var next = try #require(current)
                next.sealed = [9, 9]
                next.expiresAt = nil
                return next
            }
            #expect(second?.version == 2)
            #expect(try await store.row(for: "k") == second)
            #expect(try await store.row(for: "k")?.expiresAt == nil)

            #expect(try await store.update(key: "k") { _ in nil } == nil)
            #expect(try await store.row(for: "k") == nil)
            _ = try await store.update(key: "k") { _ in row("k") }
            try await store.delete(key: "k")
            #expect(try await store.row(for: "k") == nil)
            try await store.delete(key: "never-there")
        }
    }

    @Test("one-time entries: stored once, a live one is a replay, taken once, an expired one is replaced or gone")
    func oneTime() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            let later = now.addingTimeInterval(60)
            #expect(try await store.insertOnce(namespace: "n", id: "a", value: [7], expiresAt: later, now: now))
            #expect(try await !store.insertOnce(namespace: "n", id: "a", value: [8], expiresAt: later, now: now))
            #expect(try await store.insertOnce(namespace: "other", id: "a", value: [9], expiresAt: later, now: now))
            #expect(try await store.takeOnce(namespace: "n", id: "a", now: now) == [7])
            #expect(try await store.takeOnce(namespace: "n", id: "a", now: now) == nil)

            // Expired at `later`: a new value may take the ID, and taking an expired one yields nothing.
            #expect(try await store.insertOnce(namespace: "n", id: "b", value: [1], expiresAt: later, now: now))
            #expect(try await store.insertOnce(namespace: "n", id: "b", value: [2], expiresAt: later + 60, now: later))
            #expect(try await store.takeOnce(namespace: "n", id: "b", now: later) == [2])
            #expect(try await store.insertOnce(namespace: "n", id: "c", value: [3], expiresAt: later, now: now))
            #expect(try await store.takeOnce(namespace: "n", id: "c", now: later) == nil)
            #expect(try await store.insertOnce(namespace: "n", id: "c", value: [4], expiresAt: later, now: now))
        }
    }

    @Test("one-time IDs raced from many tasks: exactly one insert wins")
    func oneTimeRace() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for value in 0..<16 {
                    group.addTask {
                        try await store.insertOnce(
                            namespace: "n", id: "race", value: [UInt8(value)], expiresAt: now + 60, now: now)
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        }
    }

    @Test("rights: insert once, read, list sorted, update attempts, delete")
    func rights() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            let record = StoredRightRecord(identifier: "b-right", record: [1, 2], failedAttempts: 1, lockedUntil: now)
            #expect(try await store.insertRight(record))
            #expect(try await !store.insertRight(StoredRightRecord(identifier: "b-right", record: [9])))
            #expect(try await store.insertRight(StoredRightRecord(identifier: "a-right", record: [3])))
            #expect(try await store.insertRight(StoredRightRecord(identifier: "Z-right", record: [4])))
            #expect(try await store.right(identifier: "b-right") == record)
            #expect(try await store.right(identifier: "missing") == nil)
            #expect(try await store.rightIdentifiers() == ["Z-right", "a-right", "b-right"])

            let found = try await store.updateAttempts(identifier: "b-right") { current in
                RightAttempts(failedAttempts: current.failedAttempts + 1, lockedUntil: nil, tag: [7, 7])
            }
            #expect(found == RightAttempts(failedAttempts: 1, lockedUntil: now))
            #expect(
                try await store.right(identifier: "b-right")?.attempts
                    == RightAttempts(failedAttempts: 2, lockedUntil: nil, tag: [7, 7]))
            #expect(try await store.right(identifier: "b-right")?.record == [1, 2])
            #expect(try await store.updateAttempts(identifier: "missing") { $0 } == nil)

            #expect(try await store.deleteRight(identifier: "b-right"))
            #expect(try await !store.deleteRight(identifier: "b-right"))
            #expect(try await store.rightIdentifiers() == ["Z-right", "a-right"])
        }
    }

    @Test("attempt counters updated from many tasks at once lose no update")
    func attemptsRace() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            #expect(try await store.insertRight(StoredRightRecord(identifier: "r", record: [1])))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        _ = try await store.updateAttempts(identifier: "r") {
                            RightAttempts(failedAttempts: $0.failedAttempts + 1, lockedUntil: nil)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.right(identifier: "r")?.failedAttempts == 20)
        }
    }

    @Test("listing is per application and ordered; purging removes expired rows and expired one-time entries")
    func listingAndPurge() async throws {
        try await PostgresTestServer.withStore { (store, url) async throws in
            for (key, app, expiry) in [
                ("b", "mail", -10.0), ("a", "mail", 3600), ("c", "mail", nil), ("d", "chat", -10), ("e", "chat", 3600),
            ] as [(String, String, Double?)] {
                _ = try await store.update(key: key) { _ in row(key, app: app, expiresIn: expiry) }
            }
            #expect(try await store.rows(application: "mail").map(\.key) == ["a", "b", "c"])
            #expect(try await store.rows(application: "chat").map(\.key) == ["d", "e"])
            #expect(try await store.rows(application: "none").isEmpty)

            #expect(try await store.insertOnce(namespace: "n", id: "old", value: [1], expiresAt: now, now: now - 60))
            #expect(try await store.insertOnce(namespace: "n", id: "live", value: [2], expiresAt: now + 60, now: now))

            #expect(try await store.deleteExpired(before: now, application: "mail") == 1)
            #expect(try await store.rows(application: "mail").map(\.key) == ["a", "c"])
            #expect(try await store.rows(application: "chat").map(\.key) == ["d", "e"])
            let once = try await PostgresTestServer.execute(url, ["SELECT id FROM ssokit_once_entries ORDER BY id"])
            #expect(try once.map { try $0.decode(String.self) } == ["live"])

            #expect(try await store.deleteExpired(before: now, application: nil) == 1)
            #expect(try await store.rows(application: "chat").map(\.key) == ["e"])
            #expect(try await store.deleteExpired(before: now + 7200, application: nil) == 2)
            #expect(try await store.rows(application: "mail").map(\.key) == ["c"])
            #expect(try await store.takeOnce(namespace: "n", id: "live", now: now) == nil)
        }
    }

    @Test("a failing update body rolls back: its error reaches the caller unchanged and the committed row stays")
    func failingBody() async throws {
        try await PostgresTestServer.withStore { (store, _) async throws in
            let committed = try #require(try await store.update(key: "k") { _ in row("k", sealed: [1]) })
            await #expect(throws: RefreshDenied(serial: 7)) {
                _ = try await store.update(key: "k") { current in
                    #expect(current == committed)
                    throw RefreshDenied(serial: 7)
                }
            }
            #expect(try await store.row(for: "k") == committed)
            await #expect(throws: RefreshDenied(serial: 8)) {
                _ = try await store.update(key: "new") { _ in throw RefreshDenied(serial: 8) }
            }
            #expect(try await store.row(for: "new") == nil)
            // The store still works after the rollbacks.
            #expect(try await store.update(key: "k") { _ in nil } == nil)
        }
    }
}
