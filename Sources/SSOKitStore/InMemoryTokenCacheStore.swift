import Foundation

/// A process-local store: fast, and gone with the process. One-time entries are bounded.
public actor InMemoryTokenCacheStore: TokenCacheStore, RightRecordStore {
    private var rowsByKey: [String: StoredRow] = [:]
    private var onceEntries: [String: (value: [UInt8], expiresAt: Date)] = [:]
    private var rights: [String: StoredRightRecord] = [:]
    private var busyKeys: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    private let onceCapacity: Int

    /// Creates an empty store holding at most `onceCapacity` live one-time entries.
    public init(onceCapacity: Int = 100_000) { self.onceCapacity = onceCapacity }

    /// The row under `key`.
    public func row(for key: String) async throws(TokenCacheError) -> StoredRow? { rowsByKey[key] }

    /// Read, transform and write one entry with the entry held exclusively.
    public func update(
        key: String, _ body: @Sendable (StoredRow?) async throws -> StoredRow?
    ) async throws -> StoredRow? {
        while busyKeys.contains(key) {
            await withCheckedContinuation { waiters[key, default: []].append($0) }
        }
        busyKeys.insert(key)
        defer {
            busyKeys.remove(key)
            if var queue = waiters[key], !queue.isEmpty {
                queue.removeFirst().resume()
                waiters[key] = queue.isEmpty ? nil : queue
            }
        }
        let current = rowsByKey[key]
        let next = try await body(current)
        if let next {
            if next != current {
                var written = next
                written.version = (current?.version ?? 0) + 1
                rowsByKey[key] = written
                return written
            }
            return current
        }
        rowsByKey[key] = nil
        return nil
    }

    /// Removes one row.
    public func delete(key: String) async throws(TokenCacheError) { rowsByKey[key] = nil }

    /// The rows of one app.
    public func rows(application: String) async throws(TokenCacheError) -> [StoredRow] {
        rowsByKey.values.filter { $0.application == application }.sorted { $0.key < $1.key }
    }

    /// Removes expired rows, and the one-time values expired at `date`.
    public func deleteExpired(before date: Date, application: String?) async throws(TokenCacheError) -> Int {
        let expired = rowsByKey.values.filter { row in
            (application.map { row.application == $0 } ?? true) && (row.expiresAt.map { $0 < date } ?? false)
        }
        for row in expired { rowsByKey[row.key] = nil }
        onceEntries = onceEntries.filter { $0.value.expiresAt > date }
        return expired.count
    }

    /// Stores a one-time value unless a live one exists.
    public func insertOnce(namespace: String, id: String, value: [UInt8], expiresAt: Date, now: Date)
        async throws(TokenCacheError) -> Bool
    {
        let key = Self.onceKey(namespace, id)
        if let existing = onceEntries[key], existing.expiresAt > now { return false }
        if onceEntries.count >= onceCapacity {
            onceEntries = onceEntries.filter { $0.value.expiresAt > now }
            guard onceEntries.count < onceCapacity else {
                throw TokenCacheError(.capacityExceeded, "too many one-time entries are live")
            }
        }
        onceEntries[key] = (value, expiresAt)
        return true
    }

    /// Takes a live one-time value.
    public func takeOnce(namespace: String, id: String, now: Date) async throws(TokenCacheError) -> [UInt8]? {
        let key = Self.onceKey(namespace, id)
        guard let entry = onceEntries.removeValue(forKey: key), entry.expiresAt > now else { return nil }
        return entry.value
    }

    /// One map key per (namespace, id); the length prefix keeps namespaces from running into IDs.
    private static func onceKey(_ namespace: String, _ id: String) -> String {
        "\(namespace.utf8.count):\(namespace)|\(id)"
    }

    /// Replaces a row's sealed bytes as they are: for tests that simulate tampering with a backend.
    public func overwriteSealed(key: String, with sealed: [UInt8]) {
        rowsByKey[key]?.sealed = sealed
    }

    /// Inserts a right record unless its identifier is taken.
    public func insertRight(_ record: StoredRightRecord) async throws(TokenCacheError) -> Bool {
        guard rights[record.identifier] == nil else { return false }
        rights[record.identifier] = record
        return true
    }

    /// The right record under `identifier`.
    public func right(identifier: String) async throws(TokenCacheError) -> StoredRightRecord? { rights[identifier] }

    /// Every persisted right identifier, sorted.
    public func rightIdentifiers() async throws(TokenCacheError) -> [String] { rights.keys.sorted() }

    /// Removes a right record.
    public func deleteRight(identifier: String) async throws(TokenCacheError) -> Bool {
        rights.removeValue(forKey: identifier) != nil
    }

    /// Replaces the attempt counters; returns those found.
    public func updateAttempts(
        identifier: String, _ body: @Sendable (RightAttempts) -> RightAttempts
    ) async throws(TokenCacheError) -> RightAttempts? {
        guard let current = rights[identifier]?.attempts else { return nil }
        rights[identifier]?.attempts = body(current)
        return current
    }
}
