import Foundation
import PostgresNIO
import PostgresTestSupport
import SSOKitPostgres
import SSOKitStore
import SSOKitTokenCache
import Testing

@Suite("PostgresTokenCacheStore schema", .timeLimit(.minutes(5)))
struct PostgresSchemaTests {
    func schemaRow(_ url: String) async throws -> (version: Int, xmin: String) {
        let rows = try await PostgresTestServer.execute(url, ["SELECT version, xmin::text FROM ssokit_schema"])
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        let (version, xmin) = try row.decode((Int, String).self)
        return (version, xmin)
    }

    @Test("connecting creates the tables and records the schema version; connecting again writes nothing")
    func migrations() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            let store = try await PostgresTokenCacheStore.connect(url: url)
            _ = try await store.update(key: "k") { _ in
                StoredRow(key: "k", application: "a", sealed: [1], expiresAt: nil, version: 0)
            }
            await store.shutdown()
            let tables = try await PostgresTestServer.execute(
                url,
                [
                    """
                    SELECT count(*) FROM (VALUES ('ssokit_schema'), ('ssokit_entries'), ('ssokit_once_entries'), \
                    ('ssokit_rights'), ('ssokit_entries_application')) AS t(name) WHERE to_regclass(name) IS NOT NULL
                    """
                ])
            #expect(try tables.first?.decode(Int.self) == 5)
            let first = try await schemaRow(url)
            #expect(first.version == PostgresTokenCacheStore.schemaVersion)
            #expect(PostgresTokenCacheStore.schemaVersion == 3)

            let again = try await PostgresTokenCacheStore.connect(url: url)
            #expect(try await again.row(for: "k")?.sealed == [1])
            await again.shutdown()
            let second = try await schemaRow(url)
            #expect(second.version == first.version)
            #expect(second.xmin == first.xmin, "the schema row was not rewritten")
        }
    }

    @Test("two stores connecting to a new database at once both migrate it without error")
    func concurrentMigrations() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            async let first = PostgresTokenCacheStore.connect(url: url)
            async let second = PostgresTokenCacheStore.connect(url: url)
            let stores = try await [first, second]
            for store in stores { await store.shutdown() }
            #expect(try await schemaRow(url).version == PostgresTokenCacheStore.schemaVersion)
        }
    }

    @Test("a database written by a newer schema version is refused with store_unavailable")
    func newerSchemaRefused() async throws {
        try await PostgresTestServer.withDatabase { (url) async throws in
            try await PostgresTokenCacheStore.connect(url: url).shutdown()
            try await PostgresTestServer.execute(url, ["UPDATE ssokit_schema SET version = 99"])
            do throws(TokenCacheError) {
                let store = try await PostgresTokenCacheStore.connect(url: url)
                await store.shutdown()
                Issue.record("a newer schema was accepted")
            } catch {
                #expect(error.code == .storeUnavailable)
                #expect(error.reason.contains("newer"), "\(error.reason)")
            }
            #expect(try await schemaRow(url).version == 99, "the newer schema was left alone")
        }
    }
}
