import SSOKitCore
import SSOKitRights
import SSOKitTokenCache

/// A token-cache key kept as the secret of a persisted right (SSOKitRights), so that the cache opens only after the
/// right's requirement (a passphrase) is met: refresh tokens are unreadable without it.
public enum ProtectedCacheKey {
    /// The right `ssokit` keeps its cache key under.
    public static let defaultRightIdentifier = "ssokit.cache-key"

    /// Authorizes the right `identifier` with `authenticator` and returns its secret as the cache key. On first use
    /// the right is created with a passphrase requirement (the passphrase from `newPassphrase`) and a new random
    /// 256-bit key.
    ///
    /// Throws `RightError` (`authorization_denied`, `locked_out`, ...) or what `newPassphrase` throws.
    public static func unlock(
        rights: RightStore, identifier: String = defaultRightIdentifier, authenticator: any RightAuthenticator,
        newPassphrase: () async throws -> String, localizedReason: String = "Unlock the SSOKit token cache"
    ) async throws -> CacheEncryptionKey {
        var existing: PersistedRight?
        do throws(RightError) {
            existing = try await rights.right(forIdentifier: identifier, authenticator: authenticator)
        } catch {
            guard error.code == .notFound else { throw error }
        }
        let persisted: PersistedRight
        if let existing {
            persisted = existing
        } else {
            let requirement = try PassphraseRequirement(
                label: "cache passphrase", passphrase: try await newPassphrase())
            let right = try Right(requirement: .passphrase(requirement), authenticator: authenticator)
            persisted = try await rights.persist(right, identifier: identifier, secret: SecureRandom.bytes(32))
        }
        try await persisted.authorize(localizedReason: localizedReason)
        return try CacheEncryptionKey(bytes: try persisted.secret())
    }
}
