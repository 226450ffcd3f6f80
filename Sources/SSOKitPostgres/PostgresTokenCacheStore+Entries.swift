import Foundation
import PostgresNIO
import SSOKitStore

extension PostgresTokenCacheStore {
    /// The advisory-lock class of entry keys (the two-key form, apart from the migration lock's single key).
    static let entryLockClass: Int32 = 0x5353_4F4B

    /// The row stored under `key`, or nil.
    public func row(for key: String) async throws(TokenCacheError) -> StoredRow? {
        try await run("reading an entry") {
            try await session.rows(
                "SELECT \(unescaped: PostgresColumns.entryColumns) FROM ssokit_entries WHERE key = \(key)"
            ).first.map(PostgresColumns.storedRow)
        }
    }

    /// Runs `body` with the current row while the entry is locked across processes, then writes what it returns
    /// (nil deletes; the row unchanged writes nothing) and commits before returning.
    ///
    /// The lock is a transaction-level advisory lock on the key, taken before the row is read, so that two
    /// processes serialize even when the row does not exist yet; the row is then read `FOR UPDATE`. An error from
    /// `body` rolls back and reaches the caller unchanged; any other failure is store_unavailable.
    public func update(
        key: String, _ body: @Sendable (StoredRow?) async throws -> StoredRow?
    ) async throws -> StoredRow? {
        do {
            return try await session.transaction { connection in
                try await Self.update(key: key, on: connection, logger: session.logger, body: body)
            }
        } catch {
            if let failure = error as? BodyFailure { throw failure.error }
            throw PostgresFailure.storeUnavailable("updating an entry", error)
        }
    }

    private static func update(
        key: String, on connection: PostgresConnection, logger: Logger,
        body: @Sendable (StoredRow?) async throws -> StoredRow?
    ) async throws -> StoredRow? {
        try await connection.query(
            "SELECT pg_advisory_xact_lock(\(entryLockClass), hashtext(\(key)))", logger: logger)
        let current = try await connection.query(
            "SELECT \(unescaped: PostgresColumns.entryColumns) FROM ssokit_entries WHERE key = \(key) FOR UPDATE",
            logger: logger
        ).collect().first.map(PostgresColumns.storedRow)
        let next: StoredRow?
        do {
            next = try await body(current)
        } catch {
            throw BodyFailure(error: error)
        }
        guard let next else {
            try await connection.query("DELETE FROM ssokit_entries WHERE key = \(key)", logger: logger)
            return nil
        }
        if next == current { return current }
        var written = next
        written.key = key
        written.version = (current?.version ?? 0) + 1
        try await connection.query(
            """
            INSERT INTO ssokit_entries (key, application, sealed, expires_at, version) \
            VALUES (\(key), \(written.application), \(PostgresColumns.bytea(written.sealed)), \
            \(PostgresColumns.seconds(written.expiresAt)), \(written.version)) \
            ON CONFLICT (key) DO UPDATE SET application = EXCLUDED.application, sealed = EXCLUDED.sealed, \
            expires_at = EXCLUDED.expires_at, version = EXCLUDED.version
            """, logger: logger)
        return written
    }

    /// Removes the row under `key` if present.
    public func delete(key: String) async throws(TokenCacheError) {
        let logger = session.logger
        try await run("deleting an entry") {
            try await session.transaction { connection in
                _ = try await connection.query("DELETE FROM ssokit_entries WHERE key = \(key)", logger: logger)
            }
        }
    }

    /// Every row of `application`, ordered by key (byte order).
    public func rows(application: String) async throws(TokenCacheError) -> [StoredRow] {
        try await run("listing entries") {
            try await session.rows(
                """
                SELECT \(unescaped: PostgresColumns.entryColumns) FROM ssokit_entries \
                WHERE application = \(application) ORDER BY key COLLATE "C"
                """
            ).map(PostgresColumns.storedRow)
        }
    }

    /// Removes the rows (of `application`, or of every app when nil) whose expiry is before `date`, and every
    /// one-time entry expired at `date`; returns how many rows were removed.
    public func deleteExpired(before date: Date, application: String?) async throws(TokenCacheError) -> Int {
        let logger = session.logger
        let cutoff = date.timeIntervalSince1970
        return try await run("purging expired entries") {
            try await session.transaction { connection in
                // NULL matches every app: one statement for both cases, counted on the server.
                let removed = try await connection.query(
                    """
                    WITH removed AS (DELETE FROM ssokit_entries WHERE expires_at < \(cutoff) \
                    AND (\(application)::text IS NULL OR application = \(application)) RETURNING 1) \
                    SELECT count(*) FROM removed
                    """, logger: logger
                ).collect().first?.decode(Int.self)
                try await connection.query(
                    "DELETE FROM ssokit_once_entries WHERE expires_at <= \(cutoff)", logger: logger)
                return removed ?? 0
            }
        }
    }

    /// Replaces a row's sealed bytes as they are, outside the cache's API: for tests that tamper with the database.
    public func overwriteSealed(key: String, with sealed: [UInt8]) async throws(TokenCacheError) {
        let logger = session.logger
        try await run("overwriting an entry") {
            try await session.transaction { connection in
                _ = try await connection.query(
                    "UPDATE ssokit_entries SET sealed = \(PostgresColumns.bytea(sealed)) WHERE key = \(key)",
                    logger: logger)
            }
        }
    }
}
