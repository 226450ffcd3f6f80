import Crypto
import CryptoExtras
import Foundation

/// A public key that can check JWS signatures, parsed once from a JWK.
public struct VerificationKey: Sendable {
    /// The key material, already parsed for swift-crypto.
    public enum Material: Sendable {
        /// An RSA public key of at least 2048 bits.
        case rsa(_RSA.Signing.PublicKey)
        /// A P-256 public key.
        case p256(P256.Signing.PublicKey)
        /// A P-384 public key.
        case p384(P384.Signing.PublicKey)
        /// A P-521 public key.
        case p521(P521.Signing.PublicKey)
        /// An Ed25519 public key.
        case ed25519(Curve25519.Signing.PublicKey)
    }

    /// The `kid`, when the JWK has one.
    public let keyID: String?
    /// The `alg` the JWK restricts the key to, when it names one.
    public let algorithm: JWSAlgorithm?
    /// The parsed key.
    public let material: Material

    /// Creates a key from parsed material.
    public init(keyID: String?, algorithm: JWSAlgorithm? = nil, material: Material) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.material = material
    }

    /// Whether this key may verify signatures of `algorithm`: the family and curve fit, and the JWK's own `alg`
    /// (if any) is that algorithm.
    public func canVerify(_ algorithm: JWSAlgorithm) -> Bool {
        if let restriction = self.algorithm, restriction != algorithm { return false }
        switch (material, algorithm.family) {
        case (.rsa, .rsaPKCS1), (.rsa, .rsaPSS): return true
        case (.p256, .ecdsa(.p256)), (.p384, .ecdsa(.p384)), (.p521, .ecdsa(.p521)): return true
        case (.ed25519, .eddsa): return true
        default: return false
        }
    }

    /// Checks `signature` over `signingInput` with `algorithm`; false on any mismatch or malformed signature.
    public func isValidSignature(
        _ signature: UnsafeRawBufferPointer, for signingInput: UnsafeRawBufferPointer, algorithm: JWSAlgorithm
    ) -> Bool {
        guard canVerify(algorithm) else { return false }
        switch material {
        case .rsa(let key):
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            let padding: _RSA.Signing.Padding = algorithm.family == .rsaPSS ? .PSS : .insecurePKCS1v1_5
            switch algorithm.hash {
            case .sha256:
                return key.isValidSignature(rsaSignature, for: SHA256.hash(data: signingInput), padding: padding)
            case .sha384:
                return key.isValidSignature(rsaSignature, for: SHA384.hash(data: signingInput), padding: padding)
            case .sha512:
                return key.isValidSignature(rsaSignature, for: SHA512.hash(data: signingInput), padding: padding)
            }
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: signingInput)
        case .p384(let key):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: signingInput)
        case .p521(let key):
            guard let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: signingInput)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: signingInput)
        }
    }
}
