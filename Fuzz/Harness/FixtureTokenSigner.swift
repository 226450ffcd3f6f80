import Crypto
import Foundation
import SSOKitCore

/// Signs compact JWS for the `id-token` target with the fixtures' elliptic-curve keys (`fixtures/oidc/keys`, whose
/// public halves are in `jwks/main.json`), so that mutated headers and claims get past the signature check.
/// RSA keys are left out: one RSA signature costs more than the rest of an execution.
struct FixtureTokenSigner: Sendable {
    private let p256: P256.Signing.PrivateKey
    private let p384: P384.Signing.PrivateKey
    private let p521: P521.Signing.PrivateKey
    private let ed25519: Curve25519.Signing.PrivateKey

    init() throws {
        p256 = try P256.Signing.PrivateKey(pemRepresentation: FuzzFixtures.text("oidc/keys/ec-p256.pem"))
        p384 = try P384.Signing.PrivateKey(pemRepresentation: FuzzFixtures.text("oidc/keys/ec-p384.pem"))
        p521 = try P521.Signing.PrivateKey(pemRepresentation: FuzzFixtures.text("oidc/keys/ec-p521.pem"))
        ed25519 = try Curve25519.Signing.PrivateKey(
            rawRepresentation: Self.ed25519Seed(
                pem: FuzzFixtures.text("oidc/keys/ed-1.pem")))
    }

    /// `header.payload.signature`, signed with the key that the header's `alg` names (by a plain text search, so
    /// that the harness does not depend on the parser under test); ES256 when it names none of them.
    func token(header: [UInt8], payload: [UInt8]) -> String {
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let data = Array(signingInput.utf8)
        let headerText = String(decoding: header, as: UTF8.self)
        let signature: Data?
        if headerText.contains("\"EdDSA\"") {
            signature = try? ed25519.signature(for: data)
        } else if headerText.contains("\"ES384\"") {
            signature = try? p384.signature(for: data).rawRepresentation
        } else if headerText.contains("\"ES512\"") {
            signature = try? p521.signature(for: data).rawRepresentation
        } else {
            signature = try? p256.signature(for: data).rawRepresentation
        }
        return signingInput + "." + Base64URL.encode(signature ?? Data())
    }

    /// The 32-byte seed of an unencrypted PKCS#8 Ed25519 key (RFC 8410 §7): a fixed 16-byte prefix, then the seed.
    private static func ed25519Seed(pem: String) throws -> Data {
        let prefix: [UInt8] = [
            0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
        ]
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: body), der.count == 48, Array(der.prefix(16)) == prefix else {
            throw FuzzFixtures.SetupFailure(description: "ed-1.pem is not an unencrypted PKCS#8 Ed25519 key")
        }
        return der.suffix(32)
    }
}
