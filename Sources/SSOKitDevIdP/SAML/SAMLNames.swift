/// The SAML 2.0 URIs the IdP writes (SAML Core §3.2.2.2, §8.3; Bindings §3.4, §3.5).
enum SAMLNames {
    static let protocolNamespace = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertionNamespace = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
    static let postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
    static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"
    static let passwordContext = "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"
    static let uriAttributeFormat = "urn:oasis:names:tc:SAML:2.0:attrname-format:uri"

    /// The NameID formats the IdP can issue.
    enum NameIDFormat {
        static let unspecified = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
        static let emailAddress = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
        static let persistent = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"
        static let transient = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient"
        static let all = [emailAddress, persistent, transient, unspecified]
    }
}
