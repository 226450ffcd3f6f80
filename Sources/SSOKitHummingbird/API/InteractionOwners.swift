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
/// only its SHA-256 is kept, and it is part of the record's key: a claim by anyone else looks up a key that does not
/// exist, so it can neither use nor disturb the owner's record.
///
/// Each caller may have at most ``maximumPendingPerCaller`` live interactions in this process (every browser flow
/// counts as one caller, `browser`): past that, ``hasRoom(for:)`` is false and the host refuses to start another.
public struct InteractionOwners: Sendable {
    static let namespace = "ssokit-interaction-owner"

    private let cache: TokenCache
    private let clock: any SSOKitClock
    private let quota: InteractionQuota

    /// Owners kept in `cache`, their lifetimes judged by `clock` (the cache's); at most `maximumPendingPerCaller`
    /// live interactions per caller.
    public init(cache: TokenCache, clock: any SSOKitClock = SystemClock(), maximumPendingPerCaller: Int = 32) {
        self.cache = cache
        self.clock = clock
        quota = InteractionQuota(limit: maximumPendingPerCaller)
    }

    /// How many live interactions one caller may have.
    public var maximumPendingPerCaller: Int { quota.limit }

    /// Whether `owner`'s caller may start another interaction now (fewer than ``maximumPendingPerCaller`` live).
    public func hasRoom(for owner: String) async -> Bool {
        await quota.hasRoom(for: Self.caller(of: owner), now: clock.now)
    }

    /// Records `owner` as the one who may resume `interaction`; false when the store refused it or the caller has
    /// no room left (the interaction then cannot be resumed through the API).
    public func record(_ interaction: Interaction, owner: String) async -> Bool {
        let lifetime = interaction.expiresAt.timeIntervalSince(clock.now)
        guard lifetime > 0, Self.isWellFormed(interaction.id) else { return false }
        let caller = Self.caller(of: owner)
        guard await quota.reserve(interaction.id, for: caller, until: interaction.expiresAt, now: clock.now) else {
            return false
        }
        let digest = Self.digest(owner)
        let stored =
            (try? await cache.putOneTime(
                digest, namespace: Self.namespace, id: Self.key(interaction.id, digest), lifetime: lifetime)) == true
        if !stored { await quota.release(interaction.id, for: caller) }
        return stored
    }

    /// Whether `owner` may resume the interaction `id` now. When it may, the record is used up (an interaction is
    /// resumed once); when another caller asks, nothing changes and the answer is the same as for an unknown ID.
    public func claim(_ id: String, by owner: String) async -> Bool {
        guard Self.isWellFormed(id) else { return false }
        let digest = Self.digest(owner)
        guard let stored = try? await cache.takeOneTime(namespace: Self.namespace, id: Self.key(id, digest)),
            ConstantTime.equals(stored, digest)
        else { return false }
        await quota.release(id, for: Self.caller(of: owner))
        return true
    }

    /// The record's one-time ID: the interaction ID and the owner's digest in hex.
    private static func key(_ id: String, _ digest: [UInt8]) -> String {
        id + "." + digest.map { String(format: "%02x", $0) }.joined()
    }

    private static func digest(_ owner: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(owner.utf8)))
    }

    /// The caller an owner counts against: every browser flow (`browser:<secret>`) is one caller.
    static func caller(of owner: String) -> String {
        owner.hasPrefix("browser:") ? "browser" : owner
    }

    /// An interaction ID as the adapter makes them: 16 to 64 base64url characters.
    static func isWellFormed(_ id: String) -> Bool {
        (16...64).contains(id.utf8.count) && Base64URL.decode(id) != nil
    }
}
