import Foundation

/// Where a `TokenCache` (SSOKitTokenCache) keeps its rows. Every write is durable when the call returns; a failing
/// call changes nothing. Implementations: ``InMemoryTokenCacheStore``; SQLite and PostgreSQL stores share the same contract.
public protocol TokenCacheStore: Sendable {
    /// The row stored under `key`, or nil.
    func row(for key: String) async throws(TokenCacheError) -> StoredRow?

    /// Runs `body` with the current row under `key` while holding that entry exclusively (across processes, for
    /// shared backends), then stores what `body` returns (nil deletes; returning the row unchanged writes nothing).
    /// `body` is where a refresh token is spent, so two holders never spend the same one.
    func update(
        key: String, _ body: @Sendable (StoredRow?) async throws -> StoredRow?
    ) async throws -> StoredRow?

    /// Removes the row under `key` if present.
    func delete(key: String) async throws(TokenCacheError)

    /// Every row of `application`.
    func rows(application: String) async throws(TokenCacheError) -> [StoredRow]

    /// Removes the rows (of `application`, or of every app when nil) whose expiry is before `date`; returns how many.
    func deleteExpired(before date: Date, application: String?) async throws(TokenCacheError) -> Int

    /// Stores a one-time value under (`namespace`, `id`) until `expiresAt` unless a live one is already there.
    /// Returns false when one was (a replay).
    func insertOnce(namespace: String, id: String, value: [UInt8], expiresAt: Date, now: Date)
        async throws(TokenCacheError) -> Bool

    /// Removes and returns the live one-time value under (`namespace`, `id`), or nil.
    func takeOnce(namespace: String, id: String, now: Date) async throws(TokenCacheError) -> [UInt8]?
}
