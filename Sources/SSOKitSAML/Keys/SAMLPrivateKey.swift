internal import CXMLSec

/// A service provider's private key (RSA or EC), optionally with its certificate: it signs AuthnRequests and
/// decrypts EncryptedAssertions. The key material stays inside OpenSSL; it is never logged or printed.
public final class SAMLPrivateKey: Sendable {
    let key: XMLSecKey
    /// The certificate published for this key (SP metadata, KeyInfo of POST-binding signatures), if given.
    public let certificate: SAMLCertificate?

    /// Loads a PEM private key (PKCS#8 `PRIVATE KEY`, or `RSA PRIVATE KEY` / `EC PRIVATE KEY`), unencrypted, and
    /// optionally its PEM certificate.
    public init(pem: String, certificatePEM: String? = nil) throws(SAMLError) {
        let certificate = try certificatePEM.map { pem throws(SAMLError) in try SAMLCertificate(pem: pem) }
        let keyBytes = Array(pem.utf8)
        let certificateBytes = certificate.map { Array($0.pem.utf8) } ?? []
        let pointer = keyBytes.withUnsafeBufferPointer { keyBuffer in
            certificateBytes.withUnsafeBufferPointer { certificateBuffer in
                ssokit_key_private_from_pem(
                    keyBuffer.baseAddress, keyBuffer.count,
                    certificateBuffer.isEmpty ? nil : certificateBuffer.baseAddress, certificateBuffer.count)
            }
        }
        guard let pointer else {
            throw SAMLError(.invalidKey, "the private key (or its certificate) could not be read, or they do not match")
        }
        self.key = XMLSecKey(pointer)
        self.certificate = certificate
        guard key.family != .other else { throw SAMLError(.invalidKey, "only RSA and EC keys are supported") }
    }
}
