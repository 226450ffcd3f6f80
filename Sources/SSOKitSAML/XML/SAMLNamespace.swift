/// The namespace URIs SSOKitSAML reads and writes.
enum SAMLNamespace {
    // StaticString: passed to C without a copy on every element comparison.
    static let protocolNS: StaticString = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertion: StaticString = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let metadata: StaticString = "urn:oasis:names:tc:SAML:2.0:metadata"
    static let dsig: StaticString = "http://www.w3.org/2000/09/xmldsig#"
    static let xmlenc: StaticString = "http://www.w3.org/2001/04/xmlenc#"
    static let xml: StaticString = "http://www.w3.org/XML/1998/namespace"
}
