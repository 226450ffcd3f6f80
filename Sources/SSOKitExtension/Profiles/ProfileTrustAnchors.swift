internal import CCMS

/// The certificates that a signed profile's signer must chain to. Any of them is an anchor, self-signed or not,
/// and the certificates' key usages are not restricted (MDM servers sign with TLS certificates).
public struct ProfileTrustAnchors: Sendable, Hashable {
    let pem: [UInt8]
    /// How many certificates the anchors hold.
    public let count: Int

    /// Reads every `CERTIFICATE` block of a PEM text.
    public init(pem: String) throws(ProfileError) {
        let bytes = Array(pem.utf8)
        let count = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ssokit_pem_certificate_count($0.baseAddress, $0.count) }
        }
        guard count > 0 else {
            throw ProfileError(.invalidTrustAnchor, "the trust anchors hold no readable PEM certificate")
        }
        self.pem = bytes
        self.count = Int(count)
    }
}
