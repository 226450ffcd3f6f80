import SSOKitCore
import SSOKitOIDC
import SSOKitRights

/// Signs OIDC `private_key_jwt` client assertions (RFC 7523) with a persisted right's key, as ES256 with the key's
/// JWK thumbprint as `kid`. Register `RightPublicKey.jwk` with the provider. Signing fails with `not_authorized`
/// unless the right is authorized.
///
/// It lives here, where OIDC and the rights meet, so that SSOKitRights needs no OIDC.
public struct RightClientAssertionSigner: ClientAssertionSigner {
    private let right: PersistedRight
    private let keyID: String

    /// Signs with `right`'s key; `keyID` defaults to the key's thumbprint.
    public init(right: PersistedRight, keyID: String? = nil) {
        self.right = right
        self.keyID = keyID ?? right.publicKey.thumbprint
    }

    /// The compact ES256 JWS of `claims`.
    public func sign(_ claims: ClientAssertionClaims) async throws -> String {
        try right.privateKey.compactJWS(
            header: CompactJWS.header(algorithm: JWSAlgorithm.es256.name, keyID: keyID), payload: claims.json)
    }
}
