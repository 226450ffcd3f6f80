import Foundation
import PostgresTestSupport
import SSOKitConformance
import SSOKitPostgres
import SSOKitStore
import SSOKitTesting
import SSOKitTokenCache
import Testing

@Suite("PostgresTokenCacheStore across stores and processes", .timeLimit(.minutes(5)))
struct PostgresConcurrencyTests {
    let clock = AdjustableClock()
    let key = TokenCacheKey(application: "com.example.mail", issuer: "https://idp.example.com", clientID: "mail")

    @Test("two stores on one database (as two processes): concurrent refreshes spend the refresh token once")
    func twoStoresRefreshOnce() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            let encryption = CacheEncryptionKey.generate()
            let firstStore = try await PostgresTokenCacheStore.connect(url: url)
            let secondStore = try await PostgresTokenCacheStore.connect(url: url)
            let first = TokenCache(store: firstStore, key: encryption, clock: clock)
            let second = TokenCache(store: secondStore, key: encryption, clock: clock)
            let outcome = try await TwoStoreRefreshRace.run(first: first, second: second, key: key, now: clock.now)
            #expect(outcome.refreshTokensSpent.allSatisfy { $0 == "rt-1" })
            #expect(outcome.refreshCalls == 1)
            #expect(outcome.accessTokens == ["at-1", "at-1"])
            await firstStore.shutdown()
            await secondStore.shutdown()
        }
    }

    @Test("two stores creating the same missing entry at once: the second sees the first's row")
    func twoStoresCreateOnce() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            let stores = [
                try await PostgresTokenCacheStore.connect(url: url),
                try await PostgresTokenCacheStore.connect(url: url),
            ]
            let creations = CallCounter()
            let versions = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for store in stores {
                    group.addTask {
                        try await store.update(key: "new") { current in
                            if let current { return current }
                            _ = creations.increment()
                            try await Task.sleep(for: .milliseconds(100))
                            return StoredRow(key: "new", application: "a", sealed: [1], expiresAt: nil, version: 0)
                        }?.version
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(creations.value == 1)
            #expect(versions == [1, 1])
            for store in stores { await store.shutdown() }
        }
    }

    @Test("two processes refreshing one stale entry at once: one refresh-token use, the same new tokens for both")
    func twoProcessesRefreshOnce() async throws {
        let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("PostgresRefreshWorker")
        try #require(FileManager.default.isExecutableFile(atPath: worker.path), "the worker is built with the tests")
        try await PostgresTestServer.withDatabase { (url) async throws in
            let encryption = CacheEncryptionKey.generate()
            let shared = TokenCacheKey(
                application: "com.example.shared", issuer: "https://idp.example.com", clientID: "shared")
            let store = try await PostgresTokenCacheStore.connect(url: url)
            let stale = CachedTokens(
                accessToken: "at-old", refreshToken: "rt-1", accessTokenExpiresAt: Date().addingTimeInterval(-10))
            try await TokenCache(store: store, key: encryption).store(stale, for: shared)

            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-pg-workers-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            var processes: [(Process, Pipe)] = []
            for name in ["a", "b"] {
                let process = Process()
                process.executableURL = worker
                process.arguments = [url, encryption.base64, directory.path, name]
                let output = Pipe()
                process.standardOutput = output
                process.standardInput = FileHandle.nullDevice
                try process.run()
                processes.append((process, output))
            }
            let ready = ["a", "b"].map { directory.appendingPathComponent("ready-\($0)").path }
            let deadline = Date().addingTimeInterval(60)
            while !ready.allSatisfy(FileManager.default.fileExists(atPath:)) && Date() < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("go").path, contents: nil)

            var lines: [String] = []
            for (process, output) in processes {
                let ended = try await waitForExit(process, timeout: 60)
                #expect(ended, "a worker hung")
                #expect(process.terminationStatus == 0)
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                lines += text.split(separator: "\n").map(String.init)
            }
            let refreshes = lines.filter { $0.hasPrefix("refresh ") }
            let results = lines.filter { $0.hasPrefix("tokens ") }
            #expect(refreshes == ["refresh rt-1"], "\(lines)")
            #expect(results.count == 2, "\(lines)")
            #expect(Set(results).count == 1, "both got the same tokens: \(results)")
            let stored = try await TokenCache(store: store, key: encryption).tokens(for: shared)
            #expect(results.first == "tokens \(stored?.accessToken ?? "-") \(stored?.refreshToken ?? "-")")
            await store.shutdown()
        }
    }
}
