/// Caps applied to every XML document SSOKitSAML reads.
public struct XMLLimits: Sendable, Hashable {
    /// The largest decoded document accepted, in bytes (default 1 MiB).
    public var maximumDocumentBytes: Int
    /// The deepest element nesting accepted (default 64; SAML messages nest about 10 deep).
    public var maximumDepth: Int

    /// Creates limits; the defaults suit every SAML message and metadata document seen in practice.
    public init(maximumDocumentBytes: Int = 1 << 20, maximumDepth: Int = 64) {
        self.maximumDocumentBytes = maximumDocumentBytes
        self.maximumDepth = maximumDepth
    }
}
