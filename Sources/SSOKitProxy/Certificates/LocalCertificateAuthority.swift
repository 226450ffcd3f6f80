import Crypto
import Foundation
import SwiftASN1
import X509

/// The certificate authority that signs the leaf certificates the proxy presents when it terminates TLS for an
/// intercepted host; the user trusts its certificate once.
///
/// The authority is a P-256 key and a self-signed certificate with `BasicConstraints` CA (path length 0) and
/// `keyCertSign` only. Given permitted hosts, the certificate also carries critical name constraints (RFC 5280
/// §4.2.1.10): DNS names only under those hosts, IP addresses only those listed (none when none is listed), so
/// that a stolen authority cannot impersonate any other site to a client that enforces them (Chromium does).
/// The module never stores it: ``archive(sealingKeyWith:)`` gives bytes for the host to keep, with the private key
/// sealed by the host's sealer, and ``init(archive:unsealingKeyWith:)`` restores them.
public struct LocalCertificateAuthority: Sendable {
    /// The authority's self-signed certificate, the one to trust.
    public let certificate: Certificate
    /// The hosts the name constraints permit; empty when the authority is unconstrained.
    public let permittedHosts: [String]
    let signingKey: P256.Signing.PrivateKey
    let keyIdentifier: ArraySlice<UInt8>

    /// Creates a new authority valid from an hour before `now` (clock skew) for `validity`.
    ///
    /// - Parameters:
    ///   - commonName: The subject's common name, shown in the user's certificate manager.
    ///   - permittedHosts: The host names or IP literals the authority may ever issue for (subdomains of a name
    ///     included); empty for no constraint.
    ///   - validity: How long the authority lives; one year by default.
    ///   - now: The current time.
    public static func create(
        commonName: String = "SSOKit local interception CA",
        permittedHosts: [String] = [],
        validity: Duration = .seconds(365 * 86_400),
        now: Date = Date()
    ) throws(ProxyError) -> LocalCertificateAuthority {
        var hosts: [String] = []
        for host in permittedHosts {
            guard let normalized = ProxyHostName.normalized(host) else {
                throw ProxyError(.invalidHost, "a permitted host is neither DNS labels nor an IP literal")
            }
            if !hosts.contains(normalized) { hosts.append(normalized) }
        }
        guard !commonName.isEmpty, commonName.utf8.count <= 64 else {
            throw ProxyError(.invalidConfiguration, "the authority's common name must have 1 to 64 bytes")
        }
        let key = P256.Signing.PrivateKey()
        let privateKey = Certificate.PrivateKey(key)
        let identifier = SubjectKeyIdentifier(hash: privateKey.publicKey)
        do {
            let name = try DistinguishedName { CommonName(commonName) }
            let constraints = hosts.isEmpty ? nil : HostNameConstraints(hosts).extensionValue()
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                identifier
                if let constraints { Critical(constraints) }
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: privateKey.publicKey,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(validity.seconds),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                issuerPrivateKey: privateKey)
            return LocalCertificateAuthority(
                certificate: certificate, permittedHosts: hosts, signingKey: key,
                keyIdentifier: identifier.keyIdentifier)
        } catch {
            throw ProxyError(.certificateAuthorityFailed, "the certificate authority could not be created")
        }
    }

    init(
        certificate: Certificate, permittedHosts: [String], signingKey: P256.Signing.PrivateKey,
        keyIdentifier: ArraySlice<UInt8>
    ) {
        self.certificate = certificate
        self.permittedHosts = permittedHosts
        self.signingKey = signingKey
        self.keyIdentifier = keyIdentifier
    }

    /// The certificate in PEM, for the user to add to a browser's or the system's trust store.
    public var certificatePEM: String {
        get throws(ProxyError) {
            do {
                return try certificate.serializeAsPEM().pemString
            } catch {
                throw ProxyError(.certificateAuthorityFailed, "the authority's certificate could not be encoded")
            }
        }
    }

    /// The SHA-256 digest of the certificate's DER, in lower-case hex: what a user compares before trusting it.
    public var fingerprint: String {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate)) != nil else { return "" }
        return SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02x", $0) }.joined()
    }

    /// When the authority stops being valid; a host re-creates it (and asks the user to trust it again) before then.
    public var notValidAfter: Date { certificate.notValidAfter }

    /// Whether the permitted hosts allow a certificate for the normalized `host`: always when unconstrained,
    /// otherwise a listed IP literal, or a listed name or one of its subdomains.
    public func permits(host: String) -> Bool {
        guard !permittedHosts.isEmpty else { return true }
        guard let host = ProxyHostName.normalized(host) else { return false }
        return HostNameConstraints(permittedHosts).permits(host)
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
