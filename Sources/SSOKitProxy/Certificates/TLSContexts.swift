import Crypto
import NIOSSL
import SwiftASN1
import X509

/// The TLS contexts of the proxy: one client context to reach origins, one server context per intercepted host.
/// Browsers are offered HTTP/1.1 only, the one protocol the proxy parses.
enum TLSContexts {
    /// The context that verifies origins against `trust`, names them by SNI and checks their host names.
    static func originClient(trust: OriginTrust) throws(ProxyError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.certificateVerification = .fullVerification
        configuration.applicationProtocols = ["http/1.1"]
        do {
            switch trust.roots {
            case .system:
                configuration.trustRoots = .default
            case .certificates(let certificates):
                configuration.trustRoots = .certificates(try certificates.map(nioCertificate))
            }
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw ProxyError(.tlsConfigurationFailed, "the origin trust roots could not be loaded")
        }
    }

    /// The context that presents `leaf` to a browser.
    static func server(leaf: LeafCertificate) throws(ProxyError) -> NIOSSLContext {
        do {
            let key = try NIOSSLPrivateKey(bytes: Array(leaf.privateKey.derRepresentation), format: .der)
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try nioCertificate(leaf.certificate))], privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            configuration.applicationProtocols = ["http/1.1"]
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw ProxyError(.tlsConfigurationFailed, "the leaf certificate for \(leaf.host) could not be loaded")
        }
    }

    private static func nioCertificate(_ certificate: Certificate) throws -> NIOSSLCertificate {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
    }
}
