import Foundation
import PostgresNIO
import SSOKitPostgres
import SSOKitTokenCache

/// The PostgreSQL server the tests run against.
///
/// `SSOKIT_TEST_POSTGRES_URL` (e.g. `postgres://ssokit@127.0.0.1:5433/ssokit_test`) names one; its user must be
/// allowed to create databases. When it is unset, a throwaway server is started once per test process with
/// `initdb`/`pg_ctl` (see ``ThrowawayPostgres``); when neither works, every test that needs a server fails with the
/// reason. Each test gets a database of its own, dropped afterwards.
public struct PostgresTestServer: Sendable {
    /// Where databases are created and dropped.
    public let adminURL: String

    /// The server of this test process, found or started on first use.
    public static let shared = Task { () async throws -> PostgresTestServer in
        if let url = ProcessInfo.processInfo.environment["SSOKIT_TEST_POSTGRES_URL"], !url.isEmpty {
            do {
                try await execute(url, ["SELECT 1"])
            } catch {
                throw TestServerUnavailable(
                    message: "SSOKIT_TEST_POSTGRES_URL is set, but its server cannot be used: \(error)")
            }
            return PostgresTestServer(adminURL: url)
        }
        do {
            return PostgresTestServer(adminURL: try await ThrowawayPostgres.start())
        } catch {
            throw TestServerUnavailable(
                message: """
                    the PostgreSQL tests need a server: set SSOKIT_TEST_POSTGRES_URL \
                    (e.g. postgres://ssokit@127.0.0.1:5433/ssokit_test, a user that may create databases) or \
                    install PostgreSQL so that initdb and pg_ctl can start a throwaway one. Starting one failed: \
                    \(error)
                    """)
        }
    }

    /// Runs `body` with the URL of a new, empty database, which is dropped afterwards.
    public static func withDatabase<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let server = try await shared.value
        let name = "ssokit_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        try await execute(server.adminURL, ["CREATE DATABASE \(unescaped: name)"])
        let url = try databaseURL(server.adminURL, name: name)
        do {
            let result = try await body(url)
            try await execute(server.adminURL, ["DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)"])
            return result
        } catch {
            _ = try? await execute(server.adminURL, ["DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)"])
            throw error
        }
    }

    /// Runs `body` with a store connected to a new database (and that database's URL); shuts the store down and
    /// drops the database afterwards.
    public static func withStore<Result>(_ body: (PostgresTokenCacheStore, String) async throws -> Result) async throws
        -> Result
    {
        try await withDatabase { (url) async throws in
            let store = try await PostgresTokenCacheStore.connect(url: url)
            do {
                let result = try await body(store, url)
                await store.shutdown()
                return result
            } catch {
                await store.shutdown()
                throw error
            }
        }
    }

    /// Runs `queries` one after the other on a connection to `url`; returns the rows of the last one. Fails after
    /// 20 s without an answer (the pool would retry an unreachable server for a minute).
    @discardableResult
    public static func execute(_ url: String, _ queries: [PostgresQuery]) async throws -> [PostgresRow] {
        let client = PostgresClient(configuration: try PostgresTokenCacheStore.configuration(url: url))
        return try await withThrowingTaskGroup(of: [PostgresRow]?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                throw TestServerUnavailable(message: "the PostgreSQL server did not answer within 20 s")
            }
            group.addTask {
                var rows: [PostgresRow] = []
                for query in queries { rows = try await client.query(query).collect() }
                return rows
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let rows = result { return rows }
            }
            return []
        }
    }

    /// `url` with its database replaced by `name`.
    static func databaseURL(_ url: String, name: String) throws -> String {
        guard var components = URLComponents(string: url) else {
            throw TestServerUnavailable(message: "SSOKIT_TEST_POSTGRES_URL is not a URL")
        }
        components.path = "/" + name
        guard let result = components.string else {
            throw TestServerUnavailable(message: "SSOKIT_TEST_POSTGRES_URL cannot name another database")
        }
        return result
    }
}

/// Why the tests have no PostgreSQL server.
public struct TestServerUnavailable: Error, CustomStringConvertible {
    let message: String
    /// The reason.
    public var description: String { message }
}
