import Foundation

/// The embedded default store: one SQLite file in WAL mode. A write returns only after its transaction committed
/// with fsync; several processes may share the file (busy timeout 5 s); ``update(key:_:)`` holds SQLite's write
/// lock (`BEGIN IMMEDIATE`) and re-reads the entry inside it, so two processes never spend one refresh token.
///
/// SQLite blocks: it waits up to the busy timeout for another process's write lock and fsyncs on every commit. The
/// store therefore runs on a thread of its own (a `DedicatedThreadExecutor`), never on Swift's cooperative pool:
/// a held lock or a slow disk delays this store's callers only, and every other task keeps running.
public actor SQLiteTokenCacheStore: TokenCacheStore, RightRecordStore {
    let connection: SQLiteConnection
    private let executor: DedicatedThreadExecutor
    private var lock = AsyncLock()

    /// The schema version this code writes (`PRAGMA user_version`).
    public static let schemaVersion = 3

    /// Every method runs on the store's own thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens or creates the database file at `path` (mode 0600) and migrates its schema, on the calling thread: it
    /// may wait up to the busy timeout for another process's write lock. From async code prefer ``open(path:)``.
    public init(path: String) throws(TokenCacheError) {
        try self.init(path: path, executor: DedicatedThreadExecutor(name: "ssokit-sqlite"))
    }

    /// Opens or creates the database file at `path` (mode 0600) and migrates its schema on the store's own thread,
    /// so that waiting for another process's lock holds no thread of the cooperative pool.
    public static func open(path: String) async throws(TokenCacheError) -> SQLiteTokenCacheStore {
        let executor = DedicatedThreadExecutor(name: "ssokit-sqlite")
        return try await executor.run { () throws(TokenCacheError) in
            try SQLiteTokenCacheStore(path: path, executor: executor)
        }
    }

    private init(path: String, executor: DedicatedThreadExecutor) throws(TokenCacheError) {
        let connection = try SQLiteConnection(path: path)
        try Self.migrate(connection)
        self.connection = connection
        self.executor = executor
    }

    // Runs on the store's thread, like every method: closing the last connection checkpoints the WAL (writes and
    // fsyncs). The thread ends once the executor is released.
    isolated deinit { connection.closeConnection() }

    private static func migrate(_ connection: SQLiteConnection) throws(TokenCacheError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(TokenCacheError) {
            let version: Int64
            if case .integer(let value) = try connection.query("PRAGMA user_version").first?.first {
                version = value
            } else {
                version = 0
            }
            guard version <= Int64(schemaVersion) else {
                throw TokenCacheError(.storeUnavailable, "the cache was written by a newer SSOKit (schema \(version))")
            }
            if version < 1 {
                try connection.execute(
                    """
                    CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, application TEXT NOT NULL, \
                    sealed BLOB NOT NULL, expires_at REAL, version INTEGER NOT NULL);
                    CREATE INDEX IF NOT EXISTS entries_application ON entries(application);
                    CREATE TABLE IF NOT EXISTS once_entries (namespace TEXT NOT NULL, id TEXT NOT NULL, \
                    value BLOB NOT NULL, expires_at REAL NOT NULL, PRIMARY KEY (namespace, id));
                    PRAGMA user_version = 1;
                    """)
            }
            if version < 2 {
                try connection.execute(
                    """
                    CREATE TABLE IF NOT EXISTS rights (identifier TEXT PRIMARY KEY, record BLOB NOT NULL, \
                    failed_attempts INTEGER NOT NULL DEFAULT 0, locked_until REAL);
                    PRAGMA user_version = 2;
                    """)
            }
            if version < 3 {
                // The authenticator of each right's attempt counters (NULL in rows written before).
                try connection.execute(
                    """
                    ALTER TABLE rights ADD COLUMN attempts_tag BLOB;
                    PRAGMA user_version = 3;
                    """)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func acquire() async {
        if lock.tryAcquire() { return }
        await withCheckedContinuation { lock.enqueue($0) }
    }

    func release() { lock.release() }

    /// Runs `body` in an immediate transaction with the lock held; commits on success, rolls back on error.
    func transaction<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try await body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func typed<T>(_ body: () async throws -> T) async throws(TokenCacheError) -> T {
        do {
            return try await body()
        } catch let error as TokenCacheError {
            throw error
        } catch {
            throw TokenCacheError(.storeUnavailable, "the cache database failed")
        }
    }

    private static func row(from columns: [SQLiteConnection.Value]) -> StoredRow? {
        guard columns.count == 5, case .text(let key) = columns[0], case .text(let application) = columns[1],
            case .blob(let sealed) = columns[2], case .integer(let version) = columns[4]
        else { return nil }
        var expiry: Date?
        if case .double(let seconds) = columns[3] { expiry = Date(timeIntervalSince1970: seconds) }
        if case .integer(let seconds) = columns[3] { expiry = Date(timeIntervalSince1970: TimeInterval(seconds)) }
        return StoredRow(key: key, application: application, sealed: sealed, expiresAt: expiry, version: version)
    }

    private static let selectColumns = "SELECT key, application, sealed, expires_at, version FROM entries"

    private func readRow(_ key: String) throws(TokenCacheError) -> StoredRow? {
        try connection.query("\(Self.selectColumns) WHERE key = ?", [.text(key)]).first.flatMap(Self.row(from:))
    }

    /// The row under `key`.
    public func row(for key: String) async throws(TokenCacheError) -> StoredRow? {
        await acquire()
        defer { release() }
        return try readRow(key)
    }

    /// Read, transform and write one entry inside one immediate transaction.
    public func update(
        key: String, _ body: @Sendable (StoredRow?) async throws -> StoredRow?
    ) async throws -> StoredRow? {
        try await transaction {
            let current = try readRow(key)
            let next = try await body(current)
            guard let next else {
                try connection.query("DELETE FROM entries WHERE key = ?", [.text(key)])
                return nil
            }
            if next == current { return current }
            var written = next
            written.key = key
            written.version = (current?.version ?? 0) + 1
            try connection.query(
                "INSERT OR REPLACE INTO entries (key, application, sealed, expires_at, version) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(key), .text(written.application), .blob(written.sealed),
                    written.expiresAt.map { .double($0.timeIntervalSince1970) } ?? .null, .integer(written.version),
                ])
            return written
        }
    }

    /// Removes one row.
    public func delete(key: String) async throws(TokenCacheError) {
        _ = try await typed {
            try await transaction { try connection.query("DELETE FROM entries WHERE key = ?", [.text(key)]) }
        }
    }

    /// The rows of one app.
    public func rows(application: String) async throws(TokenCacheError) -> [StoredRow] {
        await acquire()
        defer { release() }
        return try connection.query("\(Self.selectColumns) WHERE application = ? ORDER BY key", [.text(application)])
            .compactMap(Self.row(from:))
    }

    /// Removes expired rows and expired one-time entries.
    public func deleteExpired(before date: Date, application: String?) async throws(TokenCacheError) -> Int {
        try await typed {
            try await transaction {
                let cutoff = SQLiteConnection.Value.double(date.timeIntervalSince1970)
                if let application {
                    try connection.query(
                        "DELETE FROM entries WHERE application = ? AND expires_at < ?", [.text(application), cutoff])
                } else {
                    try connection.query("DELETE FROM entries WHERE expires_at < ?", [cutoff])
                }
                let removed = connection.changes
                try connection.query("DELETE FROM once_entries WHERE expires_at <= ?", [cutoff])
                return removed
            }
        }
    }

    /// Stores a one-time value unless a live one exists.
    public func insertOnce(namespace: String, id: String, value: [UInt8], expiresAt: Date, now: Date)
        async throws(TokenCacheError) -> Bool
    {
        try await typed {
            try await transaction {
                try connection.query(
                    "DELETE FROM once_entries WHERE namespace = ? AND id = ? AND expires_at <= ?",
                    [.text(namespace), .text(id), .double(now.timeIntervalSince1970)])
                try connection.query(
                    "INSERT OR IGNORE INTO once_entries (namespace, id, value, expires_at) VALUES (?, ?, ?, ?)",
                    [.text(namespace), .text(id), .blob(value), .double(expiresAt.timeIntervalSince1970)])
                return connection.changes == 1
            }
        }
    }

    /// Takes a live one-time value.
    public func takeOnce(namespace: String, id: String, now: Date) async throws(TokenCacheError) -> [UInt8]? {
        try await typed {
            try await transaction {
                let rows = try connection.query(
                    "SELECT value, expires_at FROM once_entries WHERE namespace = ? AND id = ?",
                    [.text(namespace), .text(id)])
                try connection.query(
                    "DELETE FROM once_entries WHERE namespace = ? AND id = ?", [.text(namespace), .text(id)])
                guard let columns = rows.first, case .blob(let value) = columns[0],
                    case .double(let expiry) = columns[1],
                    expiry > now.timeIntervalSince1970
                else { return nil }
                return value
            }
        }
    }

    /// Replaces a row's sealed bytes as they are, outside the cache's API: for tests that tamper with the file.
    public func overwriteSealed(key: String, with sealed: [UInt8]) async throws(TokenCacheError) {
        await acquire()
        defer { release() }
        try connection.query("UPDATE entries SET sealed = ? WHERE key = ?", [.blob(sealed), .text(key)])
    }
}
