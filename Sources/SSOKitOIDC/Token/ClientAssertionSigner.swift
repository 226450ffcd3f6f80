/// Signs `private_key_jwt` client assertions with a key the caller controls (a file, an HSM, a Right's key).
///
/// SSOKit's own signers (``PrivateKeyClientAssertionSigner``, and `RightClientAssertionSigner` in SSOKitExtension)
/// build the JWS one way, from ``ClientAssertionClaims/json``.
public protocol ClientAssertionSigner: Sendable {
    /// Returns the compact JWS of `claims`.
    func sign(_ claims: ClientAssertionClaims) async throws -> String
}
