import NIOSSL

/// The server side of mutual TLS for the app API: the server's certificate chain and key, and the authorities
/// whose client certificates are accepted. Every client must present a certificate that chains to one of them
/// (the handshake fails otherwise); the registry's `certificates` then map its SHA-256 to bundle IDs.
public struct MutualTLS: Sendable {
    let configuration: TLSConfiguration

    /// Reads PEM bytes: the server's certificate chain (leaf first), its private key, and the client CAs.
    public init(certificateChainPEM: [UInt8], privateKeyPEM: [UInt8], clientCertificateAuthoritiesPEM: [UInt8])
        throws(ServeError)
    {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        let authorities: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(certificateChainPEM)
        } catch {
            throw ServeError(.invalidTLS, "the server certificate is not PEM")
        }
        do {
            key = try NIOSSLPrivateKey(bytes: privateKeyPEM, format: .pem)
        } catch {
            throw ServeError(.invalidTLS, "the server key is not a PEM private key")
        }
        do {
            authorities = try NIOSSLCertificate.fromPEMBytes(clientCertificateAuthoritiesPEM)
        } catch {
            throw ServeError(.invalidTLS, "the client CA file is not PEM")
        }
        guard !chain.isEmpty, !authorities.isEmpty else {
            throw ServeError(.invalidTLS, "a certificate file holds no certificate")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        // A client certificate is required and verified against the client CAs only (there is no host name to
        // check on a client).
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates(authorities)
        self.configuration = configuration
    }
}
