import SSOKitStore
import SSOKitTokenCache

/// Which apps hold entries for one IdP and client, kept in the token cache under the reserved application `#apps`,
/// so that `configurationRemoved` can remove every app's entry (the store is keyed by app first).
struct ApplicationRegistry: Sendable {
    /// The reserved application name.
    static let application = "#apps"
    /// Most apps listed for one IdP and client.
    static let capacity = 100_000

    let cache: TokenCache

    private func key(identity: String, client: String) -> TokenCacheKey {
        TokenCacheKey(application: Self.application, issuer: identity, clientID: client)
    }

    /// Lists `application` (once); a store that fails only means `configurationRemoved` may miss the entry.
    func register(_ application: String, identity: String, client: String) async {
        let key = key(identity: identity, client: client)
        if let listed = try? await cache.tokens(for: key), listed.applications?.contains(application) == true { return }
        _ = try? await cache.update(key) { current in
            var applications = current?.applications ?? []
            guard !applications.contains(application), applications.count < Self.capacity else { return current }
            applications.append(application)
            applications.sort()
            return CachedTokens(applications: applications)
        }
    }

    /// The apps listed, and removes the list.
    func take(identity: String, client: String) async throws(TokenCacheError) -> [String] {
        try await cache.endSession(for: key(identity: identity, client: client)).tokens?.applications ?? []
    }
}
