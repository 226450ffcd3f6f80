import Crypto
import CryptoExtras
import SSOKitCore

/// The usable signature keys of a JWK set (RFC 7517 §5), parsed once.
///
/// Keys SSOKit cannot use for signature checks are skipped rather than fatal, so that one encryption key or
/// unknown key type in a provider's set does not break logins: `use` other than `sig`, `key_ops` without
/// `verify`, unknown `kty`/`crv`/`alg`, symmetric (`oct`) keys, and RSA keys under 2048 bits.
public struct JSONWebKeySet: Sendable {
    /// The usable keys, in document order.
    public let keys: [VerificationKey]

    /// Creates a set from keys the caller already holds.
    public init(keys: [VerificationKey]) {
        self.keys = keys
    }

    /// Parses a JWK set document; throws `invalid_jwks` when it is not `{"keys": [ {...}, ... ]}`.
    public init(jsonBytes: some Collection<UInt8>) throws(OIDCError) {
        let document: JSONValue
        do {
            document = try JSONParser().parse(jsonBytes)
        } catch {
            throw OIDCError(.invalidJWKS, "the JWK set is not valid JSON")
        }
        try self.init(document: document)
    }

    /// Reads a JWK set from a parsed document.
    public init(document: JSONValue) throws(OIDCError) {
        guard let entries = document["keys"]?.arrayValue else {
            throw OIDCError(.invalidJWKS, "the JWK set has no \"keys\" array")
        }
        var keys: [VerificationKey] = []
        for entry in entries {
            guard let members = entry.objectValue else {
                throw OIDCError(.invalidJWKS, "a member of \"keys\" is not an object")
            }
            if let key = Self.verificationKey(from: members) { keys.append(key) }
        }
        self.keys = keys
    }

    /// The key that verifies a token signed with `algorithm` and carrying `keyID`; `nil` when there is none.
    ///
    /// With a `kid`, the first key with that exact `kid` able to verify the algorithm. Without one, only the set's
    /// lone key: with several keys, picking one would be a guess, and trying each would let a token choose its key.
    public func key(for keyID: String?, algorithm: JWSAlgorithm) -> VerificationKey? {
        guard let keyID else {
            return keys.count == 1 && keys[0].canVerify(algorithm) ? keys[0] : nil
        }
        return keys.first { $0.keyID == keyID && $0.canVerify(algorithm) }
    }

    static func verificationKey(from members: [String: JSONValue]) -> VerificationKey? {
        if let use = members["use"], use.stringValue != "sig" { return nil }
        if let operations = members["key_ops"] {
            guard let list = operations.arrayValue, list.contains(.string("verify")) else { return nil }
        }
        var algorithm: JWSAlgorithm?
        if let name = members["alg"] {
            guard let known = name.stringValue.flatMap(JWSAlgorithm.init(name:)) else { return nil }
            algorithm = known
        }
        let keyID = members["kid"]?.stringValue
        guard let material = material(from: members) else { return nil }
        let key = VerificationKey(keyID: keyID, algorithm: algorithm, material: material)
        if let algorithm, !key.canVerify(algorithm) { return nil }
        return key
    }

    private static func material(from members: [String: JSONValue]) -> VerificationKey.Material? {
        func bytes(_ name: String) -> [UInt8]? {
            members[name]?.stringValue.flatMap(Base64URL.decode)
        }
        switch members["kty"]?.stringValue {
        case "RSA":
            guard let modulus = bytes("n"), let exponent = bytes("e"),
                let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent)
            else { return nil }
            return .rsa(key)
        case "EC":
            guard let x = bytes("x"), let y = bytes("y") else { return nil }
            let point = [0x04] + x + y
            switch members["crv"]?.stringValue {
            case "P-256":
                guard x.count == 32, y.count == 32 else { return nil }
                return (try? P256.Signing.PublicKey(x963Representation: point)).map { .p256($0) }
            case "P-384":
                guard x.count == 48, y.count == 48 else { return nil }
                return (try? P384.Signing.PublicKey(x963Representation: point)).map { .p384($0) }
            case "P-521":
                guard x.count == 66, y.count == 66 else { return nil }
                return (try? P521.Signing.PublicKey(x963Representation: point)).map { .p521($0) }
            default: return nil
            }
        case "OKP":
            guard members["crv"]?.stringValue == "Ed25519", let x = bytes("x"), x.count == 32,
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
            else { return nil }
            return .ed25519(key)
        default:
            return nil
        }
    }
}
