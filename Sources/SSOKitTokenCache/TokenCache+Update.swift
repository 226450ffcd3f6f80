import Foundation
import SSOKitStore

extension TokenCache {
    /// Replaces the entry under `key` with what `transform` makes of the current one (nil when there is none),
    /// while the store holds the entry exclusively (across processes for shared backends): a read-modify-write that
    /// no concurrent writer interleaves with. Returning nil deletes the entry; returning it unchanged writes nothing.
    ///
    /// Throws `TokenCacheError` (`entry_unreadable` when the current entry does not open, `store_unavailable`) or,
    /// unchanged, what `transform` threw.
    @discardableResult
    public func update(
        _ key: TokenCacheKey, _ transform: @escaping @Sendable (CachedTokens?) throws -> CachedTokens?
    ) async throws -> CachedTokens? {
        let canonical = key.canonical
        let sealer = self.sealer
        let row = try await store.update(key: canonical) { row in
            let current = try row.map { try sealer.open(CachedTokens.self, from: $0.sealed, boundTo: canonical) }
            guard let next = try transform(current) else { return nil }
            if let row, next == current { return row }
            return StoredRow(
                key: canonical, application: key.application, sealed: try sealer.seal(next, boundTo: canonical),
                expiresAt: next.expiry, version: row?.version ?? 0)
        }
        forgetInMemory(canonical)
        return try row.map { row throws(TokenCacheError) in
            try sealer.open(CachedTokens.self, from: row.sealed, boundTo: canonical)
        }
    }
}
