import Crypto
import Foundation

/// A persisted right's P-256 private key. The key never leaves the right: each operation runs only while the right
/// is authorized and fails with `not_authorized` otherwise.
public struct RightPrivateKey: Sendable {
    let right: Right
    /// The matching public key.
    public let publicKey: RightPublicKey

    /// Signs `data` with ECDSA P-256 SHA-256; the signature is raw `r ‖ s` (64 bytes, as JWS ES256 wants).
    public func signature(for data: [UInt8]) throws(RightError) -> [UInt8] {
        try right.withMaterial { material throws(RightError) in
            guard let signature = try? material.privateKey.signature(for: data) else {
                throw RightError(.cryptoFailure, "signing failed")
            }
            return Array(signature.rawRepresentation)
        }
    }

    /// Opens an HPKE message sealed to ``publicKey`` with the same `info` and `aad`.
    public func decrypt(_ message: RightSealedMessage, info: [UInt8] = [], authenticating aad: [UInt8] = [])
        throws(RightError) -> [UInt8]
    {
        try right.withMaterial { material throws(RightError) in
            do {
                let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: material.privateKey.rawRepresentation)
                var recipient = try HPKE.Recipient(
                    privateKey: key, ciphersuite: RightPublicKey.ciphersuite, info: Data(info),
                    encapsulatedKey: Data(message.encapsulatedKey))
                return Array(try recipient.open(message.ciphertext, authenticating: aad))
            } catch {
                throw RightError(.cryptoFailure, "the message does not open with this right's key")
            }
        }
    }

    /// ECDH with `peer` (its x9.63 point), then HKDF-SHA256 to `outputByteCount` bytes with `salt` and `info`.
    public func sharedKey(
        with peer: [UInt8], salt: [UInt8] = [], info: [UInt8] = [], outputByteCount: Int = 32
    ) throws(RightError) -> SymmetricKey {
        try right.withMaterial { material throws(RightError) in
            do {
                let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: material.privateKey.rawRepresentation)
                let peerKey = try P256.KeyAgreement.PublicKey(x963Representation: peer)
                return try key.sharedSecretFromKeyAgreement(with: peerKey).hkdfDerivedSymmetricKey(
                    using: SHA256.self, salt: salt, sharedInfo: info, outputByteCount: outputByteCount)
            } catch {
                throw RightError(.cryptoFailure, "key agreement failed")
            }
        }
    }
}
