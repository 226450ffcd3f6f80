import Foundation
import SSOKitStore
import SSOKitTesting
import SSOKitTokenCache
import Testing

@Suite("SQLite store threading")
struct SQLiteThreadingTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-threads-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var path: String { directory.appendingPathComponent("cache.sqlite").path }

    @Test("callers waiting for a held SQLite write lock do not stall the cooperative pool, and then run in turn")
    func heldLockLeavesThePoolFree() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // In a process of its own (SQLiteLockProbe), so that no other test's blocking shares the pool being timed.
        let probe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("SQLiteLockProbe")
        try #require(FileManager.default.isExecutableFile(atPath: probe.path), "the probe is built with the tests")
        // More waiting connections than the pool has threads (one per core).
        let waiters = ProcessInfo.processInfo.activeProcessorCount + 2
        let process = Process()
        process.executableURL = probe
        process.arguments = [path, String(waiters)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let figures = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(process.terminationStatus == 0 && figures.count == 2, "the probe failed: \(text)")
        #expect(figures[0] < 2000, "the pool stalled for \(figures[0]) ms while SQLite waited for a lock")
        #expect(figures[1] == waiters, "every waiter wrote once the lock was released")
    }

    @Test("open(path:) waits for a held write lock on the store's own thread, then opens the same database")
    func openWaitsForTheLock() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try SQLiteTokenCacheStore(path: path)
        let held = await HeldStoreUpdate(store: holder, key: "held")
        // Checking the schema takes the write lock too: opening waits until the holder commits.
        let opening = Task { try await SQLiteTokenCacheStore.open(path: path) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await held.finish()?.sealed == [1])
        #expect(try await opening.value.row(for: "held")?.sealed == [1])
    }
}
