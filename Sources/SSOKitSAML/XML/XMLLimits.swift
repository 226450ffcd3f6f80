/// Caps applied to every XML document SSOKitSAML reads.
public struct XMLLimits: Sendable, Hashable {
    /// The largest decoded document accepted, in bytes (default 1 MiB).
    public var maximumDocumentBytes: Int
    /// The deepest element nesting accepted (default 64; SAML messages nest about 10 deep).
    public var maximumDepth: Int
    /// The most attributes one element may carry, namespace declarations not counted (default 64; SAML elements
    /// carry a handful). libxml2 builds an element's attributes in time quadratic in their number, and exclusive
    /// C14N sorts them the same way: 70,000 on one element took 33 s.
    public var maximumAttributesPerElement: Int
    /// The most namespace declarations in scope at any element, on it and its ancestors (default 64; SAML messages
    /// have about a dozen). Exclusive C14N searches them for every element of the document, once per
    /// `InclusiveNamespaces` prefix, before a signature is known to be valid: 20,000 declarations over 40,000
    /// elements took 41 s.
    public var maximumNamespaceDeclarationsInScope: Int

    /// Creates limits; the defaults suit every SAML message and metadata document seen in practice.
    public init(
        maximumDocumentBytes: Int = 1 << 20, maximumDepth: Int = 64, maximumAttributesPerElement: Int = 64,
        maximumNamespaceDeclarationsInScope: Int = 64
    ) {
        self.maximumDocumentBytes = maximumDocumentBytes
        self.maximumDepth = maximumDepth
        self.maximumAttributesPerElement = maximumAttributesPerElement
        self.maximumNamespaceDeclarationsInScope = maximumNamespaceDeclarationsInScope
    }
}
