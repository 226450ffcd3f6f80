import PostgresNIO
import SSOKitStore

/// The store's tables, all prefixed `ssokit_`, and their versioned migrations.
///
/// `ssokit_schema` holds one row with the version written. Migrations run in one transaction under a fixed
/// transaction-level advisory lock, so two processes starting at once migrate one after the other; the second
/// finds the schema current and writes nothing. A database at a newer version than this code is refused.
enum PostgresSchema {
    /// The version this code writes; numbered like the SQLite store's schema (2 adds the rights table, 3 the tag
    /// that authenticates each right's attempt counters).
    static let version = 3

    /// The key of the advisory lock that serializes migrations (a single bigint: "SSOKSCHM" in ASCII).
    static let migrationLock: Int64 = 0x5353_4F4B_5343_484D

    /// Each version's statements (one statement per query: the extended protocol takes no scripts).
    static let migrations: [(version: Int, statements: [PostgresQuery])] = [
        (
            1,
            [
                """
                CREATE TABLE IF NOT EXISTS ssokit_entries (key text PRIMARY KEY, application text NOT NULL, \
                sealed bytea NOT NULL, expires_at double precision, version bigint NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS ssokit_entries_application ON ssokit_entries (application)",
                """
                CREATE TABLE IF NOT EXISTS ssokit_once_entries (namespace text NOT NULL, id text NOT NULL, \
                value bytea NOT NULL, expires_at double precision NOT NULL, PRIMARY KEY (namespace, id))
                """,
            ]
        ),
        (
            2,
            [
                """
                CREATE TABLE IF NOT EXISTS ssokit_rights (identifier text PRIMARY KEY, record bytea NOT NULL, \
                failed_attempts integer NOT NULL DEFAULT 0, locked_until double precision)
                """
            ]
        ),
        (3, ["ALTER TABLE ssokit_rights ADD COLUMN IF NOT EXISTS attempts_tag bytea"]),
    ]

    /// Brings the database to ``version``; store_unavailable when it is newer.
    static func migrate(_ session: PostgresSession) async throws {
        let logger = session.logger
        try await session.transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            let exists =
                try await connection.query("SELECT to_regclass('ssokit_schema') IS NOT NULL", logger: logger)
                .collect().first?.decode(Bool.self) ?? false
            var current = 0
            if exists {
                let rows = try await connection.query("SELECT version FROM ssokit_schema", logger: logger).collect()
                current = try rows.first?.decode(Int.self) ?? 0
            } else {
                try await connection.query(
                    """
                    CREATE TABLE ssokit_schema (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), \
                    version integer NOT NULL)
                    """, logger: logger)
            }
            guard current <= version else {
                throw TokenCacheError(
                    .storeUnavailable, "the cache database was written by a newer SSOKit (schema \(current))")
            }
            guard current < version else { return }
            for migration in migrations where migration.version > current {
                for statement in migration.statements { try await connection.query(statement, logger: logger) }
            }
            try await connection.query(
                """
                INSERT INTO ssokit_schema (singleton, version) VALUES (true, \(version)) \
                ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version
                """, logger: logger)
        }
    }
}
