import Foundation
import SSOKitExtension
import SSOKitTokenCache

/// The check every persistent replay store must pass: two guards over two connections to one store (as two
/// processes) record assertion IDs of one IdP. Distinct IDs must not collide, a replay must be refused by the other
/// guard, and the same ID from another IdP is another assertion.
public enum TwoStoreReplayCheck {
    /// What the guards answered, in order: the first ID, a second ID of the same IdP, the first ID again (through the
    /// other guard), the first ID from another IdP. A sound store gives `[true, true, false, true]`.
    public static func run(first: TokenCacheReplayGuard, second: TokenCacheReplayGuard, now: Date) async throws
        -> [Bool]
    {
        let issuer = "https://idp.example.com/saml"
        let expiry = now.addingTimeInterval(300)
        return [
            try await first.recordFirstUse(assertionID: "_assert-1", issuer: issuer, expiry: expiry),
            try await first.recordFirstUse(assertionID: "_assert-2", issuer: issuer, expiry: expiry),
            try await second.recordFirstUse(assertionID: "_assert-1", issuer: issuer, expiry: expiry),
            try await second.recordFirstUse(assertionID: "_assert-1", issuer: issuer + "/other", expiry: expiry),
        ]
    }
}
