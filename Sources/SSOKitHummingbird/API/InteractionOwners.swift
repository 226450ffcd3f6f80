import Crypto
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitTokenCache

/// Who started each pending interaction: only that caller may resume it. An interaction's ID is unguessable, but
/// it travels (in a body, a log of the calling app, a browser page); this binding makes a leaked ID useless to
/// anyone else.
///
/// The records are one-time entries of the token cache (sealed, expiring with the interaction), so every instance
/// sharing the store honours them. An owner is a name (``CallerIdentity/description``, or a browser flow's secret);
/// only its SHA-256 is kept and it is compared in constant time.
public struct InteractionOwners: Sendable {
    static let namespace = "ssokit-interaction-owner"

    private let cache: TokenCache
    private let clock: any SSOKitClock

    /// Owners kept in `cache`, their lifetimes judged by `clock` (the cache's).
    public init(cache: TokenCache, clock: any SSOKitClock = SystemClock()) {
        self.cache = cache
        self.clock = clock
    }

    /// Records `owner` as the one who may resume `interaction`; false when the store refused it (the interaction
    /// then cannot be resumed through the API).
    public func record(_ interaction: Interaction, owner: String) async -> Bool {
        let lifetime = interaction.expiresAt.timeIntervalSince(clock.now)
        guard lifetime > 0, Self.isWellFormed(interaction.id) else { return false }
        return await put(id: interaction.id, digest: Self.digest(owner), expiresAt: interaction.expiresAt)
    }

    /// Whether `owner` may resume the interaction `id` now. When it may, the record is used up (an interaction is
    /// resumed once); when another caller asks, the record stays for its owner and the answer is the same as for an
    /// unknown ID.
    public func claim(_ id: String, by owner: String) async -> Bool {
        guard Self.isWellFormed(id),
            let bytes = try? await cache.takeOneTime(namespace: Self.namespace, id: id), bytes.count == 40
        else { return false }
        let expiry = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let stored = Array(bytes.dropFirst(8))
        if ConstantTime.equals(stored, Self.digest(owner)) { return true }
        _ = await put(id: id, digest: stored, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiry)))
        return false
    }

    private func put(id: String, digest: [UInt8], expiresAt: Date) async -> Bool {
        let lifetime = expiresAt.timeIntervalSince(clock.now)
        guard lifetime > 0 else { return false }
        let expiry = UInt64(max(0, expiresAt.timeIntervalSince1970.rounded(.up)))
        let value = (0..<8).reversed().map { UInt8(truncatingIfNeeded: expiry >> ($0 * 8)) } + digest
        return (try? await cache.putOneTime(value, namespace: Self.namespace, id: id, lifetime: lifetime)) == true
    }

    private static func digest(_ owner: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(owner.utf8)))
    }

    /// An interaction ID as the adapter makes them: 16 to 64 base64url characters.
    static func isWellFormed(_ id: String) -> Bool {
        (16...64).contains(id.utf8.count) && Base64URL.decode(id) != nil
    }
}
