import Crypto
import CryptoExtras
import Foundation
import SSOKitCore
import SSOKitOIDC

/// Signs ID tokens with throwaway keys and publishes the matching JWK set, for tests and benchmarks.
///
/// Only for tests: the private keys live in memory and are created on each run.
public struct TestTokenSigner: Sendable {
    /// The private key of one algorithm family.
    public enum PrivateKey: Sendable {
        /// RSA (RS256/384/512, PS256/384/512).
        case rsa(_RSA.Signing.PrivateKey)
        /// P-256 (ES256).
        case p256(P256.Signing.PrivateKey)
        /// Ed25519 (EdDSA).
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    /// The key.
    public let key: PrivateKey
    /// Its `kid`.
    public let keyID: String

    /// A new RSA-2048 signer.
    public static func rsa(keyID: String = "test-rsa") throws -> TestTokenSigner {
        TestTokenSigner(key: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)), keyID: keyID)
    }

    /// A new P-256 signer.
    public static func p256(keyID: String = "test-p256") -> TestTokenSigner {
        TestTokenSigner(key: .p256(P256.Signing.PrivateKey()), keyID: keyID)
    }

    /// A new Ed25519 signer.
    public static func ed25519(keyID: String = "test-ed25519") -> TestTokenSigner {
        TestTokenSigner(key: .ed25519(Curve25519.Signing.PrivateKey()), keyID: keyID)
    }

    /// The public JWK of this key, as a JSON object text.
    public var publicJWK: String {
        switch key {
        case .rsa(let key):
            let components = Self.rsaComponents(key.publicKey)
            return #"{"kty":"RSA","kid":"\#(keyID)","use":"sig","n":"\#(components.n)","e":"\#(components.e)"}"#
        case .p256(let key):
            let point = Array(key.publicKey.x963Representation)
            return
                #"{"kty":"EC","kid":"\#(keyID)","crv":"P-256","x":"\#(Base64URL.encode(point[1...32]))","y":"\#(Base64URL.encode(point[33...64]))"}"#
        case .ed25519(let key):
            return
                #"{"kty":"OKP","kid":"\#(keyID)","crv":"Ed25519","x":"\#(Base64URL.encode(key.publicKey.rawRepresentation))"}"#
        }
    }

    /// A JWK set text holding the public keys of `signers`.
    public static func jwks(_ signers: [TestTokenSigner]) -> String {
        #"{"keys":["# + signers.map(\.publicJWK).joined(separator: ",") + "]}"
    }

    /// Signs `claims` (a JSON object text) with `algorithm` (default: RS256, ES256 or EdDSA by key type).
    public func sign(claims: String, algorithm: String? = nil, extraHeader: String = "") throws -> String {
        let alg = algorithm ?? defaultAlgorithm
        let header = #"{"alg":"\#(alg)","kid":"\#(keyID)","typ":"JWT"\#(extraHeader)}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let data = Array(input.utf8)
        let signature: [UInt8]
        switch key {
        case .rsa(let key):
            let padding: _RSA.Signing.Padding = alg.hasPrefix("PS") ? .PSS : .insecurePKCS1v1_5
            switch alg.suffix(3) {
            case "384":
                signature = Array(try key.signature(for: SHA384.hash(data: data), padding: padding).rawRepresentation)
            case "512":
                signature = Array(try key.signature(for: SHA512.hash(data: data), padding: padding).rawRepresentation)
            default:
                signature = Array(try key.signature(for: SHA256.hash(data: data), padding: padding).rawRepresentation)
            }
        case .p256(let key):
            signature = Array(try key.signature(for: data).rawRepresentation)
        case .ed25519(let key):
            signature = Array(try key.signature(for: data))
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// Standard valid claims for `issuer` and `clientID` at `now`, as JSON text, with extra members merged in.
    public static func claims(
        issuer: String, clientID: String, now: Int64, subject: String = "248289761001", nonce: String? = "n-0S6",
        extra: [String: String] = [:]
    ) -> String {
        var members = [
            #""iss":"\#(issuer)""#, #""sub":"\#(subject)""#, #""aud":"\#(clientID)""#, #""exp":\#(now + 3600)"#,
            #""iat":\#(now - 10)"#, #""auth_time":\#(now - 30)"#,
        ]
        if let nonce { members.append(#""nonce":"\#(nonce)""#) }
        for (name, json) in extra.sorted(by: { $0.key < $1.key }) { members.append(#""\#(name)":\#(json)"#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    private var defaultAlgorithm: String {
        switch key {
        case .rsa: "RS256"
        case .p256: "ES256"
        case .ed25519: "EdDSA"
        }
    }

    private static func rsaComponents(_ key: _RSA.Signing.PublicKey) -> (n: String, e: String) {
        // PKCS#1 RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }
        var reader = DERReader(bytes: Array(key.pkcs1DERRepresentation))
        guard reader.enterSequence(), let modulus = reader.readInteger(), let exponent = reader.readInteger() else {
            return ("", "")
        }
        return (Base64URL.encode(modulus), Base64URL.encode(exponent))
    }
}

/// Just enough DER to take an RSA public key apart in tests.
private struct DERReader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func readLength() -> Int? {
        guard index < bytes.count else { return nil }
        let first = bytes[index]
        index += 1
        if first < 0x80 { return Int(first) }
        let count = Int(first & 0x7F)
        guard count <= 4, index + count <= bytes.count else { return nil }
        var length = 0
        for _ in 0..<count {
            length = length << 8 | Int(bytes[index])
            index += 1
        }
        return length
    }

    mutating func enterSequence() -> Bool {
        guard index < bytes.count, bytes[index] == 0x30 else { return false }
        index += 1
        return readLength() != nil
    }

    mutating func readInteger() -> [UInt8]? {
        guard index < bytes.count, bytes[index] == 0x02 else { return nil }
        index += 1
        guard let length = readLength(), index + length <= bytes.count else { return nil }
        var value = Array(bytes[index..<index + length])
        index += length
        while value.count > 1 && value[0] == 0 { value.removeFirst() }
        return value
    }
}
