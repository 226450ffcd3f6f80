import Crypto
import Foundation
import SSOKitProxy
import SwiftASN1
import Testing
import X509

/// The local authority: what it issues verifies under RFC 5280 with the host's identity, its name constraints
/// keep it to the profile's hosts, and it survives a round trip through the host's storage only with its key.
@Suite("Local certificate authority")
struct LocalCertificateAuthorityTests {
    private func verify(_ leaf: Certificate, root: Certificate, host: String?, ip: String? = nil) async -> Bool {
        var verifier = Verifier(rootCertificates: CertificateStore([root])) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: host, serverIP: ip)
        }
        guard case .validCertificate = await verifier.validate(leaf: leaf, intermediates: CertificateStore()) else {
            return false
        }
        return true
    }

    @Test("A leaf verifies for its host against the authority, names only that host, and lives seven days")
    func leafVerifies() async throws {
        let authority = try LocalCertificateAuthority.create()
        let now = Date()
        let leaf = try authority.issueLeaf(for: "IdP.Example.Test", now: now)
        #expect(leaf.host == "idp.example.test")
        #expect(await verify(leaf.certificate, root: authority.certificate, host: "idp.example.test"))
        #expect(!(await verify(leaf.certificate, root: authority.certificate, host: "other.example.test")))
        #expect(
            try leaf.certificate.extensions.subjectAlternativeNames
                == SubjectAlternativeNames([.dnsName("idp.example.test")]))
        #expect(try leaf.certificate.extensions.basicConstraints == .notCertificateAuthority)
        #expect(abs(leaf.notValidAfter.timeIntervalSince(now) - 7 * 86_400) < 2)
        #expect(leaf.notValidAfter <= authority.notValidAfter)
    }

    @Test("An IP-literal leaf carries an iPAddress name and verifies for that address")
    func ipLeaf() async throws {
        let authority = try LocalCertificateAuthority.create(permittedHosts: ["127.0.0.1"])
        let leaf = try authority.issueLeaf(for: "127.0.0.1")
        #expect(
            try leaf.certificate.extensions.subjectAlternativeNames
                == SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))]))
        #expect(await verify(leaf.certificate, root: authority.certificate, host: nil, ip: "127.0.0.1"))
    }

    @Test("The authority is a CA for path length 0 with critical name constraints to the permitted hosts")
    func nameConstraints() throws {
        let authority = try LocalCertificateAuthority.create(permittedHosts: [
            "idp.example.test", "LOGIN.example.test.",
        ])
        let extensions = authority.certificate.extensions
        #expect(try extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try extensions.keyUsage?.keyCertSign == true)
        #expect(try extensions.keyUsage?.digitalSignature == false)
        let constraints = try #require(try extensions.nameConstraints)
        #expect(constraints.permittedDNSDomains == ["idp.example.test", "login.example.test"])
        #expect(constraints.excludedIPRanges.count == 2)
        #expect(extensions.first { $0.oid == .X509ExtensionID.nameConstraints }?.critical == true)
        #expect(authority.permits(host: "idp.example.test"))
        #expect(authority.permits(host: "www.login.example.test"))
        #expect(!authority.permits(host: "bank.example"))
        #expect(!authority.permits(host: "evilidp.example.test"))
        #expect(!authority.permits(host: "10.0.0.1"))
        #expect(throws: ProxyError(.hostNotPermitted, "")) { try authority.issueLeaf(for: "bank.example") }
        #expect(throws: ProxyError(.invalidHost, "")) { try authority.issueLeaf(for: "bad host") }
    }

    @Test("The certificate exports as PEM with a SHA-256 fingerprint")
    func pemExport() throws {
        let authority = try LocalCertificateAuthority.create(commonName: "Test CA")
        let pem = try authority.certificatePEM
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try Certificate(pemEncoded: pem) == authority.certificate)
        var serializer = DER.Serializer()
        try serializer.serialize(authority.certificate)
        let digest = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02x", $0) }.joined()
        #expect(authority.fingerprint == digest)
    }

    @Test("An archive restores only under its sealing key; its leaves still verify against the original")
    func archiveRoundTrip() async throws {
        let authority = try LocalCertificateAuthority.create(permittedHosts: ["idp.example.test"])
        let key = SymmetricKey(size: .bits256)
        let sealer = try SymmetricKeyCertificateAuthoritySealer(key: key)
        let archive = try authority.archive(sealingKeyWith: sealer)
        #expect(!String(decoding: archive, as: UTF8.self).contains("PRIVATE KEY"))
        let restored = try LocalCertificateAuthority(archive: archive, unsealingKeyWith: sealer)
        #expect(restored.certificate == authority.certificate)
        #expect(restored.permittedHosts == ["idp.example.test"])
        let leaf = try restored.issueLeaf(for: "idp.example.test")
        #expect(await verify(leaf.certificate, root: authority.certificate, host: "idp.example.test"))
        let other = try SymmetricKeyCertificateAuthoritySealer(keyBytes: Array(repeating: 7, count: 32))
        #expect(throws: ProxyError(.certificateAuthorityUnreadable, "")) {
            try LocalCertificateAuthority(archive: archive, unsealingKeyWith: other)
        }
    }

    @Test("A tampered, truncated or oversize archive is refused with certificate_authority_unreadable")
    func tamperedArchives() throws {
        let sealer = try SymmetricKeyCertificateAuthoritySealer(key: SymmetricKey(size: .bits256))
        let authority = try LocalCertificateAuthority.create(permittedHosts: ["idp.example.test"])
        let archive = try authority.archive(sealingKeyWith: sealer)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(archive)) as? [String: Any])
        var swapped = json
        swapped["certificate"] = try LocalCertificateAuthority.create(permittedHosts: ["idp.example.test"])
            .certificatePEM
        var widened = json
        widened["permitted_hosts"] = ["idp.example.test", "bank.example"]
        json["format"] = "ssokit-local-ca-v0"
        let cases: [[UInt8]] = [
            Array(try JSONSerialization.data(withJSONObject: swapped)),
            Array(try JSONSerialization.data(withJSONObject: widened)),
            Array(try JSONSerialization.data(withJSONObject: json)),
            Array(archive.prefix(archive.count / 2)),
            Array(repeating: UInt8(ascii: " "), count: LocalCertificateAuthority.maxArchiveBytes + 1),
            [],
        ]
        for bytes in cases {
            #expect(throws: ProxyError(.certificateAuthorityUnreadable, "")) {
                try LocalCertificateAuthority(archive: bytes, unsealingKeyWith: sealer)
            }
        }
    }

    @Test("A sealing key that is not 256 bits is refused")
    func sealerKeySize() {
        #expect(throws: ProxyError(.invalidConfiguration, "")) {
            try SymmetricKeyCertificateAuthoritySealer(keyBytes: Array(repeating: 1, count: 16))
        }
    }
}
