import Crypto
import Foundation
import SwiftASN1
import X509

extension LocalCertificateAuthority {
    /// The largest archive ``init(archive:unsealingKeyWith:)`` reads.
    public static let maxArchiveBytes = 64 * 1024

    /// What an archive holds: JSON with the certificate's PEM, the sealed PKCS#8 key in base64 and the permitted
    /// hosts, under a format name that says which version wrote it.
    private struct Archive: Codable {
        var format: String
        var certificate: String
        var sealedKey: String
        var permittedHosts: [String]

        static let formatName = "ssokit-local-ca-v1"

        enum CodingKeys: String, CodingKey {
            case format
            case certificate
            case sealedKey = "sealed_key"
            case permittedHosts = "permitted_hosts"
        }
    }

    /// The authority as bytes for the host to store, with the private key sealed by `sealer`; the key never
    /// appears in clear in the result.
    public func archive(sealingKeyWith sealer: some CertificateAuthorityKeySealer) throws(ProxyError) -> [UInt8] {
        do {
            let keyDER = Array(signingKey.derRepresentation)
            let archive = Archive(
                format: Archive.formatName, certificate: try certificatePEM,
                sealedKey: Data(try sealer.seal(keyDER)).base64EncodedString(), permittedHosts: permittedHosts)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return Array(try encoder.encode(archive))
        } catch {
            throw ProxyError(.certificateAuthorityFailed, "the certificate authority could not be archived")
        }
    }

    /// Restores an authority from ``archive(sealingKeyWith:)``'s bytes.
    ///
    /// - Throws: ``ProxyError/Code-swift.struct/certificateAuthorityUnreadable`` when the bytes are too large or
    ///   malformed, the key does not open under `sealer`, is not a P-256 key, or does not match the certificate.
    public init(archive bytes: [UInt8], unsealingKeyWith sealer: some CertificateAuthorityKeySealer)
        throws(ProxyError)
    {
        guard bytes.count <= Self.maxArchiveBytes else {
            throw ProxyError(.certificateAuthorityUnreadable, "the stored certificate authority is too large")
        }
        guard let archive = try? JSONDecoder().decode(Archive.self, from: Data(bytes)),
            archive.format == Archive.formatName,
            let certificate = try? Certificate(pemEncoded: archive.certificate),
            let sealed = Data(base64Encoded: archive.sealedKey)
        else { throw ProxyError(.certificateAuthorityUnreadable, "the stored certificate authority is malformed") }
        guard let keyDER = try? sealer.open(Array(sealed)) else {
            throw ProxyError(.certificateAuthorityUnreadable, "the authority's key does not open with this key")
        }
        guard let key = try? P256.Signing.PrivateKey(derRepresentation: keyDER),
            Certificate.PublicKey(key.publicKey) == certificate.publicKey,
            case .some(.some(.isCertificateAuthority)) = try? certificate.extensions.basicConstraints,
            let identifier = try? certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        else {
            throw ProxyError(.certificateAuthorityUnreadable, "the authority's key and certificate do not match")
        }
        let hosts = archive.permittedHosts.compactMap { ProxyHostName.normalized($0) }
        let stated = hosts.isEmpty ? nil : HostNameConstraints(hosts).extensionValue()
        guard hosts.count == archive.permittedHosts.count, (try? certificate.extensions.nameConstraints) == stated
        else {
            throw ProxyError(.certificateAuthorityUnreadable, "the stored hosts differ from the name constraints")
        }
        self.init(certificate: certificate, permittedHosts: hosts, signingKey: key, keyIdentifier: identifier)
    }
}
