import Foundation

/// One persisted authorization right as a backend sees it: an identifier, an opaque record written once, and the
/// counters of failed attempts that the right's owner updates.
///
/// The record holds the right's requirements and its sealed key material; backends never interpret it. A store
/// offers no way to change a record once inserted: requirements are immutable.
public struct StoredRightRecord: Sendable, Hashable {
    /// The identifier the right was persisted under.
    public var identifier: String
    /// The opaque, immutable record.
    public var record: [UInt8]
    /// Failed authorizations since the last success.
    public var failedAttempts: Int
    /// No authorization may be tried before this moment; nil when not locked.
    public var lockedUntil: Date?

    /// Creates a record.
    public init(identifier: String, record: [UInt8], failedAttempts: Int = 0, lockedUntil: Date? = nil) {
        self.identifier = identifier
        self.record = record
        self.failedAttempts = failedAttempts
        self.lockedUntil = lockedUntil
    }
}

/// The attempt counters of one persisted right.
public struct RightAttempts: Sendable, Hashable {
    /// Failed authorizations since the last success.
    public var failedAttempts: Int
    /// No authorization may be tried before this moment; nil when not locked.
    public var lockedUntil: Date?

    /// Creates counters.
    public init(failedAttempts: Int, lockedUntil: Date?) {
        self.failedAttempts = failedAttempts
        self.lockedUntil = lockedUntil
    }
}

/// Where persisted rights live: the same backends as the token cache (in-memory, SQLite, PostgreSQL), in a table of
/// their own. Every write is durable when the call returns.
public protocol RightRecordStore: Sendable {
    /// Inserts `record` unless its identifier is taken; returns false when it was (the existing record is kept).
    func insertRight(_ record: StoredRightRecord) async throws(TokenCacheError) -> Bool

    /// The record under `identifier`, or nil.
    func right(identifier: String) async throws(TokenCacheError) -> StoredRightRecord?

    /// Every persisted identifier, sorted.
    func rightIdentifiers() async throws(TokenCacheError) -> [String]

    /// Removes the record under `identifier`; returns whether one was there.
    func deleteRight(identifier: String) async throws(TokenCacheError) -> Bool

    /// Atomically replaces the attempt counters of `identifier` with `body(current)` (across processes, for shared
    /// backends); returns the new counters, or nil when no such right exists.
    func updateAttempts(
        identifier: String, _ body: @Sendable (RightAttempts) -> RightAttempts
    ) async throws(TokenCacheError) -> RightAttempts?
}
