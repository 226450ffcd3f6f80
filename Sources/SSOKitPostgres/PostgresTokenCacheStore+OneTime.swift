import Foundation
import PostgresNIO
import SSOKitStore

extension PostgresTokenCacheStore {
    /// Stores a one-time value under (`namespace`, `id`) until `expiresAt` unless a live one is already there;
    /// false when one was (a replay). One transaction: an expired value is removed, then the insert does nothing on
    /// a conflict, so two processes racing for one ID get one true and one false.
    public func insertOnce(namespace: String, id: String, value: [UInt8], expiresAt: Date, now: Date)
        async throws(TokenCacheError) -> Bool
    {
        let logger = session.logger
        return try await run("storing a one-time entry") {
            try await session.transaction { connection in
                try await connection.query(
                    """
                    DELETE FROM ssokit_once_entries WHERE namespace = \(namespace) AND id = \(id) \
                    AND expires_at <= \(now.timeIntervalSince1970)
                    """, logger: logger)
                let inserted = try await connection.query(
                    """
                    INSERT INTO ssokit_once_entries (namespace, id, value, expires_at) \
                    VALUES (\(namespace), \(id), \(PostgresColumns.bytea(value)), \(expiresAt.timeIntervalSince1970)) \
                    ON CONFLICT (namespace, id) DO NOTHING RETURNING 1
                    """, logger: logger
                ).collect()
                return inserted.count == 1
            }
        }
    }

    /// Removes the one-time value under (`namespace`, `id`) and returns it when it is still live at `now` (an
    /// expired one is removed and nil returned).
    public func takeOnce(namespace: String, id: String, now: Date) async throws(TokenCacheError) -> [UInt8]? {
        let logger = session.logger
        return try await run("taking a one-time entry") {
            try await session.transaction { connection in
                let taken = try await connection.query(
                    """
                    DELETE FROM ssokit_once_entries WHERE namespace = \(namespace) AND id = \(id) \
                    RETURNING value, expires_at
                    """, logger: logger
                ).collect()
                guard let row = taken.first else { return nil }
                let (value, expiry) = try row.decode((ByteBuffer, Double).self)
                return expiry > now.timeIntervalSince1970 ? PostgresColumns.bytes(value) : nil
            }
        }
    }
}
