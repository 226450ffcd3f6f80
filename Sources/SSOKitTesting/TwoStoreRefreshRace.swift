import Foundation
import SSOKitTokenCache
import Synchronization

/// The check every shared token-cache store must pass: two caches over two connections to one store (as two
/// processes) refresh the same stale entry at once, and the refresh token must be spent once.
public enum TwoStoreRefreshRace {
    /// What the race observed.
    public struct Outcome: Sendable {
        /// Token-endpoint calls made.
        public var refreshCalls: Int
        /// The refresh token each call received.
        public var refreshTokensSpent: [String?]
        /// The access token each cache returned.
        public var accessTokens: [String?]
    }

    /// Stores a stale entry (`at-0`, `rt-1`) through `first`, loads it into `second`'s memory, then calls
    /// `validTokens` on both at once with a 100 ms refresh that returns `at-N` / `rt-N+1` for call N.
    public static func run(
        first: TokenCache, second: TokenCache, key: TokenCacheKey, now: Date
    ) async throws -> Outcome {
        try await first.store(
            CachedTokens(accessToken: "at-0", refreshToken: "rt-1", accessTokenExpiresAt: now), for: key)
        _ = try await second.tokens(for: key)  // the second one has the stale entry in memory
        let calls = CallCounter()
        let spent = SpentTokens()
        let refresh: TokenCache.Refresh = { current in
            spent.append(current.refreshToken)
            let serial = calls.increment()
            try await Task.sleep(for: .milliseconds(100))
            return CachedTokens(
                accessToken: "at-\(serial)", refreshToken: "rt-\(serial + 1)",
                accessTokenExpiresAt: now.addingTimeInterval(3600))
        }
        async let a = first.validTokens(for: key, refresh: refresh)
        async let b = second.validTokens(for: key, refresh: refresh)
        let results = try await [a.accessToken, b.accessToken]
        return Outcome(refreshCalls: calls.value, refreshTokensSpent: spent.values, accessTokens: results)
    }
}

/// The refresh tokens a fake token endpoint received.
private final class SpentTokens: Sendable {
    private let tokens = Mutex<[String?]>([])
    func append(_ token: String?) { tokens.withLock { $0.append(token) } }
    var values: [String?] { tokens.withLock { $0 } }
}
