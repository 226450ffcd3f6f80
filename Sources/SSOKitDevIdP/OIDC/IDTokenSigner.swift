import JWTKit
import SSOKitCore
import SSOKitOIDC

/// Signs ID tokens with the IdP's RSA key (RS256, `kid` in the header), through jwt-kit.
struct IDTokenSigner: Sendable {
    private let keys: JWTKeyCollection
    private let keyID: JWKIdentifier

    init(keys signingKeys: DevIdPSigningKeys) async throws(DevIdPError) {
        let collection = JWTKeyCollection()
        let key: Insecure.RSA.PrivateKey
        do {
            key = try Insecure.RSA.PrivateKey(backing: signingKeys.oidcKey)
        } catch {
            throw DevIdPError(.keyUnavailable, "jwt-kit refused the ID-token key")
        }
        keyID = JWKIdentifier(string: signingKeys.oidcKeyID)
        await collection.add(rsa: key, digestAlgorithm: .sha256, kid: keyID)
        keys = collection
    }

    /// The compact JWS of `claims`.
    func sign(_ claims: [String: JSONValue]) async throws(DevIdPError) -> String {
        do {
            return try await keys.sign(JSONClaims(claims), kid: keyID)
        } catch {
            throw DevIdPError(.serverError, "the ID token could not be signed")
        }
    }
}
