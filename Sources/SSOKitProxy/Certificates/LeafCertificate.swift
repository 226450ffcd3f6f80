import Crypto
import Foundation
import SwiftASN1
import X509

/// A server certificate for one intercepted host, signed by the ``LocalCertificateAuthority``, with its key.
public struct LeafCertificate: Sendable {
    /// The normalized host the certificate names (its only subject alternative name).
    public let host: String
    /// The certificate.
    public let certificate: Certificate
    let privateKey: P256.Signing.PrivateKey

    /// When the certificate stops being valid.
    public var notValidAfter: Date { certificate.notValidAfter }
}

extension LocalCertificateAuthority {
    /// Issues a certificate for `host` (a DNS name or an IP literal) valid from an hour before `now` for `validity`
    /// (seven days by default), never beyond the authority's own expiry.
    ///
    /// - Throws: ``ProxyError/Code-swift.struct/invalidHost`` for a malformed host,
    ///   ``ProxyError/Code-swift.struct/hostNotPermitted`` when the authority's name constraints exclude it.
    public func issueLeaf(
        for host: String, validity: Duration = .seconds(7 * 86_400), now: Date = Date()
    ) throws(ProxyError) -> LeafCertificate {
        guard let host = ProxyHostName.normalized(host) else {
            throw ProxyError(.invalidHost, "a leaf certificate needs a DNS name or an IP literal")
        }
        guard permits(host: host) else {
            throw ProxyError(.hostNotPermitted, "the authority's name constraints do not permit \(host)")
        }
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let name: GeneralName =
            HostNameConstraints.addressBytes(host).map { .ipAddress(ASN1OctetString(contentBytes: ArraySlice($0))) }
            ?? .dnsName(host)
        let notAfter = min(now.addingTimeInterval(validity.seconds), certificate.notValidAfter)
        do {
            let subject = try host.utf8.count <= 64 ? DistinguishedName { CommonName(host) } : DistinguishedName()
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([name])
                AuthorityKeyIdentifier(keyIdentifier: keyIdentifier)
                SubjectKeyIdentifier(hash: publicKey)
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: notAfter,
                issuer: self.certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(signingKey))
            return LeafCertificate(host: host, certificate: certificate, privateKey: key)
        } catch {
            throw ProxyError(.certificateAuthorityFailed, "a leaf certificate for \(host) could not be issued")
        }
    }
}
