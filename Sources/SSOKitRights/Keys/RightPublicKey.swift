import Crypto
import Foundation
import SSOKitCore

/// A persisted right's P-256 public key. Every operation here is allowed without authorization.
public struct RightPublicKey: Sendable, Hashable {
    /// The signing view of the key.
    public let signingKey: P256.Signing.PublicKey

    init(x963: [UInt8]) throws(RightError) {
        guard let key = try? P256.Signing.PublicKey(x963Representation: x963) else {
            throw RightError(.recordUnreadable, "a stored public key is malformed")
        }
        signingKey = key
    }

    /// Uncompressed point (`04 ‖ x ‖ y`).
    public var x963Representation: [UInt8] { Array(signingKey.x963Representation) }
    /// SubjectPublicKeyInfo DER.
    public var derRepresentation: [UInt8] { Array(signingKey.derRepresentation) }
    /// SubjectPublicKeyInfo PEM.
    public var pemRepresentation: String { signingKey.pemRepresentation }

    /// The public JWK (RFC 7517), members in lexicographic order as RFC 7638 hashes them.
    public var jwk: String {
        let raw = Array(signingKey.rawRepresentation)
        let x = Base64URL.encode(raw[0..<32])
        let y = Base64URL.encode(raw[32..<64])
        return #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    }

    /// The RFC 7638 JWK thumbprint (SHA-256, base64url): the default `kid`.
    public var thumbprint: String { Base64URL.encode(SHA256.hash(data: Array(jwk.utf8))) }

    /// Whether `signature` (raw `r ‖ s`, 64 bytes, or DER) answers `challenge`: a valid ECDSA P-256 SHA-256
    /// signature of ``RightChallenge/signedMessage(for:)``, as ``RightPrivateKey/challengeSignature(for:)`` makes.
    public func isValidChallengeSignature(_ signature: [UInt8], for challenge: [UInt8]) -> Bool {
        let parsed =
            (try? P256.Signing.ECDSASignature(rawRepresentation: signature))
            ?? (try? P256.Signing.ECDSASignature(derRepresentation: signature))
        guard let parsed else { return false }
        return signingKey.isValidSignature(parsed, for: RightChallenge.signedMessage(for: challenge))
    }

    /// Encrypts `plaintext` to this key with HPKE (RFC 9180, base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256,
    /// AES-256-GCM). Only the right's private key, while authorized, can open it.
    public func encrypt(_ plaintext: [UInt8], info: [UInt8] = [], authenticating aad: [UInt8] = [])
        throws(RightError) -> RightSealedMessage
    {
        do {
            let recipient = try P256.KeyAgreement.PublicKey(rawRepresentation: signingKey.rawRepresentation)
            var sender = try HPKE.Sender(recipientKey: recipient, ciphersuite: Self.ciphersuite, info: Data(info))
            let ciphertext = try sender.seal(plaintext, authenticating: aad)
            return RightSealedMessage(encapsulatedKey: Array(sender.encapsulatedKey), ciphertext: Array(ciphertext))
        } catch {
            throw RightError(.cryptoFailure, "HPKE encryption failed")
        }
    }

    static let ciphersuite = HPKE.Ciphersuite.P256_SHA256_AES_GCM_256

    /// Keys are equal when their points are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.x963Representation == rhs.x963Representation }
    /// Hashes the point.
    public func hash(into hasher: inout Hasher) { hasher.combine(x963Representation) }
}

/// An HPKE message for a right's key: the encapsulated key and the ciphertext.
public struct RightSealedMessage: Sendable, Hashable {
    /// The sender's ephemeral public key (`enc`).
    public var encapsulatedKey: [UInt8]
    /// The AEAD ciphertext with its tag.
    public var ciphertext: [UInt8]

    /// Creates a message from its parts.
    public init(encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
        self.encapsulatedKey = encapsulatedKey
        self.ciphertext = ciphertext
    }
}
