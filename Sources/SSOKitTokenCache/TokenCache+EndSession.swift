import Foundation
import SSOKitStore
import Synchronization

/// What ``TokenCache/endSession(for:)`` removed.
public struct EndedSession: Sendable {
    /// Whether there was an entry (readable or not).
    public var existed: Bool
    /// The entry's tokens, for the caller to revoke at the provider; `nil` when there was no entry or it could not
    /// be opened (it is removed all the same).
    public var tokens: CachedTokens?
}

extension TokenCache {
    /// Ends the session under `key` here, first and whatever happens next: a logout never leaves a usable session.
    ///
    /// The entry is read and deleted in one exclusive update of the store, so a refresh running at the same time
    /// (in this process or another one sharing the store) either finished first, and its newer tokens are the ones
    /// returned, or finds no entry and stores nothing. An entry that does not open (another key, tampering) is
    /// deleted too. The tokens are returned so that the caller can then revoke them at the provider; whatever
    /// the provider answers, the local session is already gone.
    ///
    /// Throws `store_unavailable` only when the store cannot delete the entry; then nothing was removed.
    public func endSession(for key: TokenCacheKey) async throws(TokenCacheError) -> EndedSession {
        let canonical = key.canonical
        forgetInMemory(canonical)
        let sealer = self.sealer
        let found = Mutex(EndedSession(existed: false, tokens: nil))
        do {
            _ = try await store.update(key: canonical) { row in
                if let row {
                    let tokens = try? sealer.open(CachedTokens.self, from: row.sealed, boundTo: canonical)
                    found.withLock { $0 = EndedSession(existed: true, tokens: tokens) }
                }
                return nil
            }
        } catch let error as TokenCacheError {
            throw error
        } catch {
            throw TokenCacheError(.storeUnavailable, "the entry could not be removed")
        }
        // A refresh that finished while the store was busy must not leave its tokens in memory either.
        forgetInMemory(canonical)
        return found.withLock { $0 }
    }
}

extension ApplicationTokenCache {
    /// Ends this app's session for (`issuer`, `clientID`, `scopes`): see ``TokenCache/endSession(for:)``.
    public func endSession(issuer: String, clientID: String, scopes: [String] = []) async throws(TokenCacheError)
        -> EndedSession
    {
        try await cache.endSession(for: key(issuer: issuer, clientID: clientID, scopes: scopes))
    }
}
