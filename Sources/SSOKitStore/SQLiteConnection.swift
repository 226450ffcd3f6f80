internal import CSQLite
import Foundation

/// One SQLite connection with prepared-statement helpers. Not thread-safe: its owner serializes use.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens (creating when absent, mode 0600) the database at `path` in WAL mode with full fsync on commit.
    init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws(TokenCacheError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TokenCacheError(.storeUnavailable, "the cache database cannot be created (errno \(errno))")
        }
        close(descriptor)
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &pointer, flags, nil) == SQLITE_OK, let pointer else {
            if let pointer { sqlite3_close_v2(pointer) }
            throw TokenCacheError(.storeUnavailable, "the cache database cannot be opened")
        }
        handle = pointer
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
        try execute("PRAGMA foreign_keys=ON")
    }

    private var isClosed = false

    deinit { closeConnection() }

    /// Closes the connection (the last one to a database checkpoints its WAL: writes and fsyncs). Nothing may use
    /// the connection afterwards.
    func closeConnection() {
        guard !isClosed else { return }
        isClosed = true
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without results.
    func execute(_ sql: String) throws(TokenCacheError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure("executing a statement") }
    }

    /// A bound value.
    enum Value {
        case text(String)
        case blob([UInt8])
        case double(Double)
        case integer(Int64)
        case null
    }

    /// Runs `sql` with `bindings` and returns every row as columns.
    @discardableResult
    func query(_ sql: String, _ bindings: [Value] = []) throws(TokenCacheError) -> [[Value]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("preparing a statement")
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .text(let text):
                // With its byte length: a length of -1 would make SQLite stop at the first NUL.
                status = text.utf8CString.withUnsafeBufferPointer { buffer in
                    guard let length = Int32(exactly: buffer.count - 1) else { return SQLITE_TOOBIG }
                    return sqlite3_bind_text(statement, index, buffer.baseAddress, length, transient)
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { buffer in
                    guard let length = Int32(exactly: buffer.count) else { return SQLITE_TOOBIG }
                    return sqlite3_bind_blob(statement, index, buffer.baseAddress, length, transient)
                }
            case .double(let number): status = sqlite3_bind_double(statement, index, number)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw failure("binding a value") }
        }
        var rows: [[Value]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure("running a statement") }
            var columns: [Value] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_TEXT:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let text = sqlite3_column_text(statement, column).map {
                        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
                    }
                    columns.append(.text(text ?? ""))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let bytes = sqlite3_column_blob(statement, column).map {
                        Array(UnsafeRawBufferPointer(start: $0, count: count))
                    }
                    columns.append(.blob(bytes ?? []))
                case SQLITE_FLOAT: columns.append(.double(sqlite3_column_double(statement, column)))
                case SQLITE_INTEGER: columns.append(.integer(sqlite3_column_int64(statement, column)))
                default: columns.append(.null)
                }
            }
            rows.append(columns)
        }
        return rows
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func failure(_ action: String) -> TokenCacheError {
        TokenCacheError(.storeUnavailable, "SQLite failed \(action): \(String(cString: sqlite3_errmsg(handle)))")
    }

    private var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}
