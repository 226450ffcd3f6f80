internal import CXMLSec
import Foundation

/// An X.509 certificate pinned for SAML signature verification (an IdP's signing certificate), or published in SP
/// metadata.
///
/// Only the certificate's public key is used for verification, loaded once; the certificate's validity period is
/// not checked (SAML metadata pins keys, as the SAML V2.0 Metadata Interoperability profile describes).
public final class SAMLCertificate: Sendable, Hashable {
    /// The DER encoding.
    public let der: [UInt8]
    let publicKey: XMLSecKey

    /// Loads a DER certificate.
    public init(der: [UInt8]) throws(SAMLError) {
        let pointer = der.withUnsafeBufferPointer { buffer in
            ssokit_key_public_from_certificate(buffer.baseAddress, buffer.count, 0)
        }
        guard let pointer else { throw SAMLError(.invalidKey, "the certificate could not be read") }
        self.der = der
        self.publicKey = XMLSecKey(pointer)
    }

    /// Loads the first `CERTIFICATE` block of a PEM text.
    public convenience init(pem: String) throws(SAMLError) {
        guard let der = KeyPEM.blocks(labeled: "CERTIFICATE", in: pem).first else {
            throw SAMLError(.invalidKey, "no PEM CERTIFICATE block found")
        }
        try self.init(der: der)
    }

    /// Loads the base64 DER found in metadata's `ds:X509Certificate` (whitespace allowed).
    public convenience init(base64: String) throws(SAMLError) {
        let compact = base64.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), !data.isEmpty else {
            throw SAMLError(.invalidKey, "the certificate is not valid base64")
        }
        try self.init(der: Array(data))
    }

    /// The certificate as base64 DER on one line, as metadata and KeyInfo carry it.
    public var base64: String { Data(der).base64EncodedString() }

    /// The certificate as PEM.
    public var pem: String { KeyPEM.armor(der, label: "CERTIFICATE") }

    /// Certificates are equal when their DER is.
    public static func == (lhs: SAMLCertificate, rhs: SAMLCertificate) -> Bool { lhs.der == rhs.der }
    /// Hashes the DER.
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }
}
