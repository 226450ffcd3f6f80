import Crypto

/// Seals the authority's private key before the host stores it, and opens it again; `ssokit serve` seals it under
/// the cache's key, like the tokens.
public protocol CertificateAuthorityKeySealer: Sendable {
    /// The sealed form of `privateKey` (PKCS#8 DER).
    func seal(_ privateKey: [UInt8]) throws -> [UInt8]
    /// The key that `seal` sealed; throws when `sealed` was not sealed under this sealer or was altered.
    func open(_ sealed: [UInt8]) throws -> [UInt8]
}

/// Seals with AES-256-GCM under a key the host keeps elsewhere, with associated data that names this use, so that
/// the same key's other ciphertexts (cache entries) never open as an authority key.
public struct SymmetricKeyCertificateAuthoritySealer: CertificateAuthorityKeySealer {
    private let key: SymmetricKey
    private static let associatedData = Array("ssokit-proxy-ca-key-v1".utf8)

    /// A sealer over a 256-bit key.
    public init(key: SymmetricKey) throws(ProxyError) {
        guard key.bitCount == 256 else { throw ProxyError(.invalidConfiguration, "the sealing key is 32 bytes") }
        self.key = key
    }

    /// A sealer over exactly 32 key bytes (a cache key file's content, say).
    public init(keyBytes: [UInt8]) throws(ProxyError) {
        try self.init(key: SymmetricKey(data: keyBytes))
    }

    /// AES-GCM's combined form: nonce, ciphertext, tag.
    public func seal(_ privateKey: [UInt8]) throws -> [UInt8] {
        let box = try AES.GCM.seal(privateKey, using: key, authenticating: Self.associatedData)
        guard let combined = box.combined else { throw ProxyError(.certificateAuthorityFailed, "sealing failed") }
        return Array(combined)
    }

    /// Opens AES-GCM's combined form.
    public func open(_ sealed: [UInt8]) throws -> [UInt8] {
        let box = try AES.GCM.SealedBox(combined: sealed)
        return Array(try AES.GCM.open(box, using: key, authenticating: Self.associatedData))
    }
}
