import Foundation
import PostgresNIO
import PostgresTestSupport
import SSOKitPostgres
import SSOKitStore
import SSOKitTokenCache
import Testing

@Suite("PostgresTokenCacheStore failures", .timeLimit(.minutes(5)))
struct PostgresFailureTests {
    @Test("an unreachable server is store_unavailable within the lease timeout, without the password in the reason")
    func unreachable() async throws {
        let port = try ThrowawayPostgres.freePort()  // nothing listens there
        let started = ContinuousClock.now
        do throws(TokenCacheError) {
            let store = try await PostgresTokenCacheStore.connect(
                url: "postgres://ssokit:hunter2-secret@127.0.0.1:\(port)/ssokit", leaseTimeout: .seconds(2))
            await store.shutdown()
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.code == .storeUnavailable)
            #expect(!error.reason.contains("hunter2"), "\(error.reason)")
        }
        // The lease is 2 s; a connect that retried without end would run into the suite's time limit instead. The
        // margin is for a loaded machine, where the whole test run shares two cooperative threads.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("URLs: a plain connection to a non-loopback host is refused; malformed URLs never echo the password")
    func urls() throws {
        for url in [
            "postgres://u:hunter2-secret@db.example.com/cache?sslmode=disable",
            "http://u:hunter2-secret@127.0.0.1/cache",
            "postgres://:hunter2-secret@127.0.0.1/cache",
            "postgres://u:hunter2-secret@127.0.0.1/cache?sslmode=allow",
            "postgres://u:hunter2-secret@127.0.0.1:99999/cache",
            "not a url hunter2-secret",
        ] {
            #expect(throws: TokenCacheError(.storeUnavailable, ""), "\(url)") {
                try PostgresTokenCacheStore.configuration(url: url)
            }
            do throws(TokenCacheError) {
                _ = try PostgresTokenCacheStore.configuration(url: url)
            } catch {
                #expect(!error.reason.contains("hunter2"), "\(error.reason)")
            }
        }
        let local = try PostgresTokenCacheStore.configuration(url: "postgresql://app%40x:p%40ss@[::1]:5433/cache")
        #expect(local.host == "::1")
        #expect(local.port == 5433)
        #expect(local.username == "app@x")
        #expect(local.password == "p@ss")
        #expect(local.database == "cache")
        let remote = try PostgresTokenCacheStore.configuration(url: "postgres://u@db.example.com/cache")
        #expect(remote.port == 5432)
        #expect(try PostgresTokenCacheStore.configuration(url: "postgres://u@localhost").database == nil)
    }

    @Test("after shutdown every call is store_unavailable")
    func afterShutdown() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            let store = try await PostgresTokenCacheStore.connect(url: url)
            await store.shutdown()
            await #expect(throws: TokenCacheError(.storeUnavailable, "")) { try await store.row(for: "k") }
            await #expect(throws: TokenCacheError(.storeUnavailable, "")) {
                _ = try await store.update(key: "k") { $0 }
            }
        }
    }
}
