/// The namespace URIs SSOKitSAML reads and writes.
enum SAMLNamespace {
    static let protocolNS = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertion = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let metadata = "urn:oasis:names:tc:SAML:2.0:metadata"
    static let dsig = "http://www.w3.org/2000/09/xmldsig#"
    static let xmlenc = "http://www.w3.org/2001/04/xmlenc#"
    static let xml = "http://www.w3.org/XML/1998/namespace"
}
