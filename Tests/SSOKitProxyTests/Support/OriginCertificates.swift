import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A test origin's own PKI, unrelated to the proxy's authority: a root, and a server certificate for `localhost`
/// and 127.0.0.1 signed by it.
struct OriginCertificates {
    let root: Certificate
    let server: Certificate
    let serverKey: P256.Signing.PrivateKey

    init() throws {
        let rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("SSOKit test origin root") }
        let now = Date()
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(3600),
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        serverKey = P256.Signing.PrivateKey()
        server = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(3600),
            issuer: rootName, subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([
                    .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
                try ExtendedKeyUsage([.serverAuth])
            },
            issuerPrivateKey: .init(rootKey))
    }

    /// The root as NIOSSL takes it.
    var nioRoot: NIOSSLCertificate {
        get throws { try Self.nio(root) }
    }

    /// A server context presenting the server certificate.
    func serverContext() throws -> NIOSSLContext {
        let key = try NIOSSLPrivateKey(bytes: Array(serverKey.derRepresentation), format: .der)
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try Self.nio(server))], privateKey: .privateKey(key))
        return try NIOSSLContext(configuration: configuration)
    }

    static func nio(_ certificate: Certificate) throws -> NIOSSLCertificate {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
    }
}
