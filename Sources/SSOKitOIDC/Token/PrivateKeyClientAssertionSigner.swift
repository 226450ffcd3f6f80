import Crypto
import CryptoExtras
import Foundation
import SSOKitCore

/// A ``ClientAssertionSigner`` holding the client's private key in memory: ES256 for a P-256 key, RS256 for an
/// RSA key of 2048 bits or more. It signs with swift-crypto, as SSOKit verifies.
public struct PrivateKeyClientAssertionSigner: ClientAssertionSigner {
    private enum Key: Sendable {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    private let key: Key
    private let keyID: String?

    /// Signs ES256 with `key`, stamping `keyID` into the header when given.
    public init(p256 key: P256.Signing.PrivateKey, keyID: String? = nil) {
        self.key = .p256(key)
        self.keyID = keyID
    }

    /// Reads a PEM private key (PKCS #8, SEC 1 or PKCS #1): P-256 signs ES256, RSA of 2048 bits or more RS256.
    /// Throws ``OIDCError/Code/invalidKey`` for anything else; the error never holds the key.
    public init(pem: String, keyID: String? = nil) throws(OIDCError) {
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            self.key = .p256(key)
        } else if let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem), key.keySizeInBits >= 2048 {
            self.key = .rsa(key)
        } else {
            throw OIDCError(.invalidKey, "the PEM holds neither a P-256 nor an RSA (2048 bits or more) private key")
        }
        self.keyID = keyID
    }

    /// The `alg` this signer writes: `ES256` or `RS256`.
    public var algorithm: JWSAlgorithm {
        switch key {
        case .p256: .es256
        case .rsa: .rs256
        }
    }

    /// The compact JWS of `claims`.
    public func sign(_ claims: ClientAssertionClaims) async throws -> String {
        try CompactJWS.make(
            header: CompactJWS.header(algorithm: algorithm.name, keyID: keyID), payload: claims.json
        ) { signingInput throws in
            switch key {
            case .p256(let key):
                return Array(try key.signature(for: signingInput).rawRepresentation)
            case .rsa(let key):
                return Array(try key.signature(for: signingInput, padding: .insecurePKCS1v1_5).rawRepresentation)
            }
        }
    }
}
