import Crypto
import SSOKitCore

/// A JWS signature algorithm SSOKit verifies (RFC 7518 §3, RFC 8037 §3.1): asymmetric only.
///
/// `none` and the HMAC family are not representable here on purpose: an ID token's signature must come from a
/// key the provider holds alone.
public struct JWSAlgorithm: Sendable, Hashable, CustomStringConvertible {
    /// The registered `alg` name.
    public let name: String
    let family: Family
    let hash: HashFunction

    enum Family: Sendable, Hashable {
        case rsaPKCS1, rsaPSS
        case ecdsa(Curve)
        case eddsa
    }
    enum Curve: Sendable, Hashable { case p256, p384, p521 }
    enum HashFunction: Sendable, Hashable { case sha256, sha384, sha512 }

    private init(_ name: String, _ family: Family, _ hash: HashFunction) {
        self.name = name
        self.family = family
        self.hash = hash
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256.
    public static let rs256 = JWSAlgorithm("RS256", .rsaPKCS1, .sha256)
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    public static let rs384 = JWSAlgorithm("RS384", .rsaPKCS1, .sha384)
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    public static let rs512 = JWSAlgorithm("RS512", .rsaPKCS1, .sha512)
    /// RSASSA-PSS with SHA-256 and MGF1 with SHA-256.
    public static let ps256 = JWSAlgorithm("PS256", .rsaPSS, .sha256)
    /// RSASSA-PSS with SHA-384 and MGF1 with SHA-384.
    public static let ps384 = JWSAlgorithm("PS384", .rsaPSS, .sha384)
    /// RSASSA-PSS with SHA-512 and MGF1 with SHA-512.
    public static let ps512 = JWSAlgorithm("PS512", .rsaPSS, .sha512)
    /// ECDSA on P-256 with SHA-256.
    public static let es256 = JWSAlgorithm("ES256", .ecdsa(.p256), .sha256)
    /// ECDSA on P-384 with SHA-384.
    public static let es384 = JWSAlgorithm("ES384", .ecdsa(.p384), .sha384)
    /// ECDSA on P-521 with SHA-512.
    public static let es512 = JWSAlgorithm("ES512", .ecdsa(.p521), .sha512)
    /// EdDSA with Ed25519 (RFC 8037); `at_hash`/`c_hash` use SHA-512.
    public static let eddsa = JWSAlgorithm("EdDSA", .eddsa, .sha512)

    /// Every algorithm SSOKit supports, the default allow-list.
    public static let all: [JWSAlgorithm] = [
        .rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .es256, .es384, .es512, .eddsa,
    ]

    /// Looks up a supported algorithm by its exact, case-sensitive `alg` name.
    public init?(name: String) {
        guard let match = Self.all.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The `alg` name.
    public var description: String { name }

    /// The left half of this algorithm's hash of `value`, base64url: `at_hash` and `c_hash` (OIDC Core §3.1.3.6).
    public func halfHash(of value: String) -> String {
        Base64URL.encode(halfDigest(of: value))
    }

    /// Whether `encoded` (an `at_hash` or `c_hash` claim) is the half hash of `value`, compared in constant time.
    public func halfHashMatches(_ encoded: String, of value: String) -> Bool {
        guard let claimed = Base64URL.decode(encoded) else { return false }
        return ConstantTime.equals(halfDigest(of: value), claimed)
    }

    private func halfDigest(of value: String) -> [UInt8] {
        var value = value
        return value.withUTF8 { bytes in
            switch hash {
            case .sha256:
                return SHA256.hash(data: UnsafeRawBufferPointer(bytes)).withUnsafeBytes { Array($0.prefix(16)) }
            case .sha384:
                return SHA384.hash(data: UnsafeRawBufferPointer(bytes)).withUnsafeBytes { Array($0.prefix(24)) }
            case .sha512:
                return SHA512.hash(data: UnsafeRawBufferPointer(bytes)).withUnsafeBytes { Array($0.prefix(32)) }
            }
        }
    }
}
