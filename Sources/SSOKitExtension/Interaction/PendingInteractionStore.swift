import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitStore
import SSOKitTokenCache

/// Pending interactions in the token cache's one-time entries: sealed, live for the interaction lifetime, taken at
/// most once (by whichever instance sharing the store resumes first).
struct PendingInteractionStore: Sendable {
    static let namespace = "ssokit-interaction"

    let cache: TokenCache
    let clock: any SSOKitClock
    let lifetime: TimeInterval

    /// Stores `pending` under a new unguessable ID and returns the interaction to show.
    func put(_ pending: PendingInteraction, kind: Interaction.Kind) async throws(AuthorizationFailure) -> Interaction {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let bytes = try? encoder.encode(pending) else {
            throw AuthorizationFailure(.failed, .storeUnavailable, "the pending login could not be encoded")
        }
        for _ in 0..<2 {
            let id = RandomToken.make(byteCount: 16)
            do {
                if try await cache.putOneTime(Array(bytes), namespace: Self.namespace, id: id, lifetime: lifetime) {
                    return Interaction(id: id, kind: kind, expiresAt: clock.now.addingTimeInterval(lifetime))
                }
            } catch {
                throw AuthorizationFailure(
                    .failed, .storeUnavailable, "the pending login could not be stored: \(error.code)")
            }
        }
        throw AuthorizationFailure(.failed, .storeUnavailable, "no free interaction ID")
    }

    /// Takes the pending interaction `id`: it cannot be taken again. Nil when unknown, taken or expired.
    func take(_ id: String) async throws(AuthorizationFailure) -> PendingInteraction? {
        guard (16...64).contains(id.utf8.count), Base64URL.decode(id) != nil else { return nil }
        let bytes: [UInt8]?
        do {
            bytes = try await cache.takeOneTime(namespace: Self.namespace, id: id)
        } catch {
            throw AuthorizationFailure(.failed, .storeUnavailable, "the pending login could not be read: \(error.code)")
        }
        guard let bytes else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(PendingInteraction.self, from: Data(bytes))
    }
}
