import Foundation

/// One persisted authorization right as a backend sees it: an identifier, an opaque record written once, and the
/// counters of failed attempts that the right's owner updates, with the owner's authenticator of those counters.
///
/// The record holds the right's requirements and its sealed key material; backends never interpret it, nor the
/// counters' tag. A store offers no way to change a record once inserted: requirements are immutable.
public struct StoredRightRecord: Sendable, Hashable {
    /// The identifier the right was persisted under.
    public var identifier: String
    /// The opaque, immutable record.
    public var record: [UInt8]
    /// Failed authorizations since the last success.
    public var failedAttempts: Int
    /// No authorization may be tried before this moment; nil when not locked.
    public var lockedUntil: Date?
    /// The owner's authenticator of the counters, kept as is (empty in rows written before counters had one).
    public var attemptsTag: [UInt8]

    /// Creates a record.
    public init(
        identifier: String, record: [UInt8], failedAttempts: Int = 0, lockedUntil: Date? = nil,
        attemptsTag: [UInt8] = []
    ) {
        self.identifier = identifier
        self.record = record
        self.failedAttempts = failedAttempts
        self.lockedUntil = lockedUntil
        self.attemptsTag = attemptsTag
    }

    /// The attempt counters and their tag.
    public var attempts: RightAttempts {
        get { RightAttempts(failedAttempts: failedAttempts, lockedUntil: lockedUntil, tag: attemptsTag) }
        set {
            failedAttempts = newValue.failedAttempts
            lockedUntil = newValue.lockedUntil
            attemptsTag = newValue.tag
        }
    }
}

/// The attempt counters of one persisted right.
public struct RightAttempts: Sendable, Hashable {
    /// Failed authorizations since the last success.
    public var failedAttempts: Int
    /// No authorization may be tried before this moment; nil when not locked.
    public var lockedUntil: Date?
    /// The owner's authenticator of the counters (a MAC), stored and returned as is.
    public var tag: [UInt8]

    /// Creates counters.
    public init(failedAttempts: Int, lockedUntil: Date?, tag: [UInt8] = []) {
        self.failedAttempts = failedAttempts
        self.lockedUntil = lockedUntil
        self.tag = tag
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

    /// Atomically (across processes, for shared backends) reads the attempt counters of `identifier` and replaces
    /// them with `body(current)`; when `body` returns them unchanged, nothing is written.
    ///
    /// - Returns: The counters `body` was given (those found), or nil when no such right exists.
    func updateAttempts(
        identifier: String, _ body: @Sendable (RightAttempts) -> RightAttempts
    ) async throws(TokenCacheError) -> RightAttempts?
}
