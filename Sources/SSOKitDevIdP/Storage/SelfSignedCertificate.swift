import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import X509

/// The self-signed certificate that carries the SAML signing key in metadata and KeyInfo, made with
/// swift-certificates. SAML pins the key through metadata, so the certificate's own trust and dates matter little;
/// it is valid for ten years.
enum SelfSignedCertificate {
    /// A PEM certificate for `key`, subject and issuer `CN=SSOKit development IdP`.
    static func pem(for key: _RSA.Signing.PrivateKey, now: Date = Date()) throws(DevIdPError) -> String {
        do {
            let signer = Certificate.PrivateKey(key)
            let name = try DistinguishedName { CommonName("SSOKit development IdP") }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: signer.publicKey,
                notValidBefore: now.addingTimeInterval(-300), notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
                issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                }, issuerPrivateKey: signer)
            return try certificate.serializeAsPEM().pemString
        } catch {
            throw DevIdPError(.keyUnavailable, "the SAML signing certificate could not be made")
        }
    }

    /// Whether the PEM certificate carries the public key of `key`.
    static func matches(_ pem: String, key: _RSA.Signing.PrivateKey) -> Bool {
        guard let certificate = try? Certificate(pemEncoded: pem) else { return false }
        return certificate.publicKey == Certificate.PrivateKey(key).publicKey
    }
}
