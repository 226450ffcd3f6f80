import Foundation
import PostgresNIO
import SSOKitStore

extension PostgresTokenCacheStore {
    /// Inserts `record` unless its identifier is taken; false when it was (the existing record is kept).
    public func insertRight(_ record: StoredRightRecord) async throws(TokenCacheError) -> Bool {
        let logger = session.logger
        return try await run("storing a right") {
            try await session.transaction { connection in
                try await connection.query(
                    """
                    INSERT INTO ssokit_rights (\(unescaped: PostgresColumns.rightColumns)) \
                    VALUES (\(record.identifier), \(PostgresColumns.bytea(record.record)), \(record.failedAttempts), \
                    \(PostgresColumns.seconds(record.lockedUntil)), \(PostgresColumns.bytea(record.attemptsTag))) \
                    ON CONFLICT (identifier) DO NOTHING RETURNING 1
                    """, logger: logger
                ).collect().count == 1
            }
        }
    }

    /// The record under `identifier`, or nil.
    public func right(identifier: String) async throws(TokenCacheError) -> StoredRightRecord? {
        try await run("reading a right") {
            try await session.rows(
                """
                SELECT \(unescaped: PostgresColumns.rightColumns) FROM ssokit_rights WHERE identifier = \(identifier)
                """
            ).first.map(PostgresColumns.rightRecord)
        }
    }

    /// Every persisted identifier, sorted (byte order).
    public func rightIdentifiers() async throws(TokenCacheError) -> [String] {
        try await run("listing rights") {
            try await session.rows("SELECT identifier FROM ssokit_rights ORDER BY identifier COLLATE \"C\"")
                .map { try $0.decode(String.self) }
        }
    }

    /// Removes the record under `identifier`; returns whether one was there.
    public func deleteRight(identifier: String) async throws(TokenCacheError) -> Bool {
        let logger = session.logger
        return try await run("deleting a right") {
            try await session.transaction { connection in
                try await connection.query(
                    "DELETE FROM ssokit_rights WHERE identifier = \(identifier) RETURNING 1", logger: logger
                ).collect().count == 1
            }
        }
    }

    /// Replaces the attempt counters of `identifier` with `body(current)` while the row is locked
    /// (`SELECT … FOR UPDATE` in one transaction, so concurrent processes apply their updates one after the other);
    /// writes nothing when `body` returns them unchanged. Returns the counters found, or nil when no such right exists.
    public func updateAttempts(
        identifier: String, _ body: @Sendable (RightAttempts) -> RightAttempts
    ) async throws(TokenCacheError) -> RightAttempts? {
        let logger = session.logger
        return try await run("updating a right's attempts") {
            try await session.transaction { connection in
                let rows = try await connection.query(
                    """
                    SELECT \(unescaped: PostgresColumns.rightColumns) FROM ssokit_rights \
                    WHERE identifier = \(identifier) FOR UPDATE
                    """, logger: logger
                ).collect()
                guard let current = try rows.first.map(PostgresColumns.rightRecord)?.attempts else { return nil }
                let next = body(current)
                guard next != current else { return current }
                try await connection.query(
                    """
                    UPDATE ssokit_rights SET failed_attempts = \(next.failedAttempts), \
                    locked_until = \(PostgresColumns.seconds(next.lockedUntil)), \
                    attempts_tag = \(PostgresColumns.bytea(next.tag)) WHERE identifier = \(identifier)
                    """, logger: logger)
                return current
            }
        }
    }

    /// Replaces a right's record bytes as they are, outside the store's API: for tests that tamper with the
    /// database.
    public func overwriteRightRecord(identifier: String, with record: [UInt8]) async throws(TokenCacheError) {
        let logger = session.logger
        try await run("overwriting a right") {
            try await session.transaction { connection in
                _ = try await connection.query(
                    "UPDATE ssokit_rights SET record = \(PostgresColumns.bytea(record)) WHERE identifier = \(identifier)",
                    logger: logger)
            }
        }
    }
}
