import Crypto
import Foundation
import SSOKitCore

/// A persisted right's P-256 private key. The key never leaves the right: each operation runs only while the right
/// is authorized and fails with `not_authorized` otherwise.
///
/// The key signs two things only, kept apart so that neither can stand for the other: answers to server challenges
/// (``challengeSignature(for:)``, over ``RightChallenge/context`` and the challenge) and the `private_key_jwt`
/// assertions that `RightClientAssertionSigner` (SSOKitExtension) builds itself. It never signs bytes chosen by a
/// caller as they are.
public struct RightPrivateKey: Sendable {
    let right: Right
    /// The matching public key.
    public let publicKey: RightPublicKey

    /// Answers a server challenge: an ECDSA P-256 SHA-256 signature, raw `r ‖ s` (64 bytes), of
    /// ``RightChallenge/signedMessage(for:)`` (``RightChallenge/context`` followed by `challenge`). Verify it with
    /// ``RightPublicKey/isValidChallengeSignature(_:for:)``.
    public func challengeSignature(for challenge: [UInt8]) throws(RightError) -> [UInt8] {
        try sign(RightChallenge.signedMessage(for: challenge))
    }

    /// The compact ES256 JWS of `header` and `payload`, built by SSOKit's one JWS builder (`CompactJWS`), for
    /// `RightClientAssertionSigner` (SSOKitExtension) alone: `package`, never public, so that no caller outside SSOKit
    /// gets the key to sign a JWS of its choosing.
    package func compactJWS(header: JSONValue, payload: JSONValue) throws(RightError) -> String {
        try CompactJWS.make(header: header, payload: payload) { signingInput throws(RightError) in
            try sign(signingInput)
        }
    }

    private func sign(_ message: [UInt8]) throws(RightError) -> [UInt8] {
        try right.withMaterial { material throws(RightError) in
            guard let signature = try? material.privateKey.signature(for: message) else {
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
