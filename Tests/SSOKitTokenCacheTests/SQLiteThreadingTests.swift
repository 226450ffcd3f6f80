import Foundation
import SSOKitTesting
import SSOKitTokenCache
import Testing

@Suite("SQLite store threading")
struct SQLiteThreadingTests {
    @Test("callers waiting for a held SQLite write lock do not stall the cooperative pool, and then run in turn")
    func heldLockLeavesThePoolFree() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-threads-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cache.sqlite").path
        let holder = try SQLiteTokenCacheStore(path: path)
        // More blocked callers than the pool has threads (one per core), each on a connection of its own, as other
        // processes would be.
        let waiterCount = ProcessInfo.processInfo.activeProcessorCount + 2
        let waiters = try (0..<waiterCount).map { _ in try SQLiteTokenCacheStore(path: path) }

        // One connection takes SQLite's write lock and keeps it until released.
        let locked = AsyncLatch()
        let release = AsyncLatch()
        let holding = Task {
            try await holder.update(key: "held") { _ in
                locked.open()
                await release.wait()
                return StoredRow(key: "held", application: "a", sealed: [1], expiresAt: nil, version: 0)
            }
        }
        await locked.wait()
        let now = Date()
        let waiting = (0..<waiterCount).map { index in
            Task {
                try await waiters[index].insertOnce(
                    namespace: "threads", id: "w\(index)", value: [UInt8(index)], expiresAt: now + 60, now: now)
            }
        }

        // Opening a store checks its schema under the write lock too: `open(path:)` waits on the store's thread.
        let opening = Task { try await SQLiteTokenCacheStore.open(path: path) }

        // Meanwhile, unrelated work on the pool ticks every 10 ms; the longest pause between ticks is measured.
        let clock = ContinuousClock()
        let start = clock.now
        var last = start
        var longestPause = Duration.zero
        while clock.now - start < .milliseconds(2500) {
            try await Task.sleep(for: .milliseconds(10))
            let tick = clock.now
            longestPause = max(longestPause, tick - last)
            last = tick
        }
        release.open()
        #expect(longestPause < .seconds(2), "the pool stalled for \(longestPause) while SQLite waited for a lock")

        // Once the lock is released, every waiter gets its turn and every write is there exactly once.
        #expect(try await holding.value?.sealed == [1])
        for task in waiting { #expect(try await task.value) }
        #expect(try await opening.value.row(for: "held")?.sealed == [1])
        for index in 0..<waiterCount {
            #expect(try await holder.takeOnce(namespace: "threads", id: "w\(index)", now: now) == [UInt8(index)])
        }
    }
}
