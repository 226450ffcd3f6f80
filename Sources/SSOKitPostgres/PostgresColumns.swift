import Foundation
import PostgresNIO
import SSOKitStore

/// Conversions between the store's values and PostgreSQL columns: bytes as `bytea`, instants as `double precision`
/// seconds since 1970 (exactly what the SQLite store keeps, so a row read back compares equal to the one written).
enum PostgresColumns {
    static let entryColumns = "key, application, sealed, expires_at, version"
    static let rightColumns = "identifier, record, failed_attempts, locked_until, attempts_tag"

    static func bytea(_ bytes: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: bytes) }

    static func bytes(_ buffer: ByteBuffer) -> [UInt8] { Array(buffer.readableBytesView) }

    static func seconds(_ date: Date?) -> Double? { date?.timeIntervalSince1970 }

    static func date(_ seconds: Double?) -> Date? { seconds.map(Date.init(timeIntervalSince1970:)) }

    /// A row of ``entryColumns``.
    static func storedRow(_ row: PostgresRow) throws -> StoredRow {
        let (key, application, sealed, expiresAt, version) = try row.decode(
            (String, String, ByteBuffer, Double?, Int64).self)
        return StoredRow(
            key: key, application: application, sealed: bytes(sealed), expiresAt: date(expiresAt), version: version)
    }

    /// A row of ``rightColumns``.
    static func rightRecord(_ row: PostgresRow) throws -> StoredRightRecord {
        let (identifier, record, failedAttempts, lockedUntil, tag) = try row.decode(
            (String, ByteBuffer, Int, Double?, ByteBuffer?).self)
        return StoredRightRecord(
            identifier: identifier, record: bytes(record), failedAttempts: failedAttempts,
            lockedUntil: date(lockedUntil), attemptsTag: tag.map(bytes) ?? [])
    }
}
