import Foundation

/// Persisted rights in the `rights` table: the record written once, the attempt counters and their tag updated in
/// immediate transactions.
extension SQLiteTokenCacheStore {
    private static let rightColumns = "identifier, record, failed_attempts, locked_until, attempts_tag"

    private static func rightRecord(from columns: [SQLiteConnection.Value]) -> StoredRightRecord? {
        guard columns.count == 5, case .text(let identifier) = columns[0], case .blob(let record) = columns[1],
            case .integer(let failed) = columns[2]
        else { return nil }
        var lockedUntil: Date?
        if case .double(let seconds) = columns[3] { lockedUntil = Date(timeIntervalSince1970: seconds) }
        if case .integer(let seconds) = columns[3] { lockedUntil = Date(timeIntervalSince1970: TimeInterval(seconds)) }
        var tag: [UInt8] = []
        if case .blob(let bytes) = columns[4] { tag = bytes }
        return StoredRightRecord(
            identifier: identifier, record: record, failedAttempts: Int(failed), lockedUntil: lockedUntil,
            attemptsTag: tag)
    }

    private static func lockedUntil(_ date: Date?) -> SQLiteConnection.Value {
        date.map { .double($0.timeIntervalSince1970) } ?? .null
    }

    /// Inserts a right record unless its identifier is taken.
    public func insertRight(_ record: StoredRightRecord) async throws(TokenCacheError) -> Bool {
        try await typed {
            try await transaction {
                try connection.query(
                    "INSERT OR IGNORE INTO rights (\(Self.rightColumns)) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(record.identifier), .blob(record.record), .integer(Int64(record.failedAttempts)),
                        Self.lockedUntil(record.lockedUntil), .blob(record.attemptsTag),
                    ])
                return connection.changes == 1
            }
        }
    }

    /// The right record under `identifier`.
    public func right(identifier: String) async throws(TokenCacheError) -> StoredRightRecord? {
        await acquire()
        defer { release() }
        return try readRight(identifier)
    }

    private func readRight(_ identifier: String) throws(TokenCacheError) -> StoredRightRecord? {
        try connection.query("SELECT \(Self.rightColumns) FROM rights WHERE identifier = ?", [.text(identifier)])
            .first.flatMap(Self.rightRecord(from:))
    }

    /// Every persisted right identifier, sorted.
    public func rightIdentifiers() async throws(TokenCacheError) -> [String] {
        await acquire()
        defer { release() }
        return try connection.query("SELECT identifier FROM rights ORDER BY identifier").compactMap { columns in
            if case .text(let identifier) = columns.first { identifier } else { nil }
        }
    }

    /// Removes a right record.
    public func deleteRight(identifier: String) async throws(TokenCacheError) -> Bool {
        try await typed {
            try await transaction {
                try connection.query("DELETE FROM rights WHERE identifier = ?", [.text(identifier)])
                return connection.changes == 1
            }
        }
    }

    /// Replaces the attempt counters inside one immediate transaction; returns those found.
    public func updateAttempts(
        identifier: String, _ body: @Sendable (RightAttempts) -> RightAttempts
    ) async throws(TokenCacheError) -> RightAttempts? {
        try await typed {
            try await transaction { () throws(TokenCacheError) -> RightAttempts? in
                guard let current = try readRight(identifier)?.attempts else { return nil }
                let next = body(current)
                guard next != current else { return current }
                try connection.query(
                    "UPDATE rights SET failed_attempts = ?, locked_until = ?, attempts_tag = ? WHERE identifier = ?",
                    [
                        .integer(Int64(next.failedAttempts)), Self.lockedUntil(next.lockedUntil), .blob(next.tag),
                        .text(identifier),
                    ])
                return current
            }
        }
    }

    /// Replaces a right's record bytes as they are, outside the store's API: for tests that tamper with the file.
    public func overwriteRightRecord(identifier: String, with record: [UInt8]) async throws(TokenCacheError) {
        await acquire()
        defer { release() }
        try connection.query("UPDATE rights SET record = ? WHERE identifier = ?", [.blob(record), .text(identifier)])
    }
}
