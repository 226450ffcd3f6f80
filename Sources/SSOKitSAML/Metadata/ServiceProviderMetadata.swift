/// SP metadata (SAML Metadata 2.0 §2.4.4) to hand to an IdP: entity ID, the HTTP-POST ACS endpoint, and the signing
/// and encryption certificates.
///
/// The encryption certificate's KeyDescriptor lists the algorithms the SP decrypts, in preference order
/// (§2.4.1.1): AES-GCM first, AES-CBC after it only for IdPs that cannot do GCM (CBC has no integrity of its own),
/// then RSA-OAEP key transport.
public struct ServiceProviderMetadata: Sendable, Hashable {
    /// The SP's entity ID.
    public var entityID: String
    /// The ACS URL (HTTP-POST binding).
    public var assertionConsumerServiceURL: String
    /// The certificate whose key signs AuthnRequests; when present, `AuthnRequestsSigned="true"`.
    public var signingCertificate: SAMLCertificate?
    /// The certificate IdPs encrypt assertions to.
    public var encryptionCertificate: SAMLCertificate?
    /// The NameID formats the SP accepts, in preference order.
    public var nameIDFormats: [String]
    /// Whether the SP requires signed assertions (`WantAssertionsSigned`).
    public var wantAssertionsSigned: Bool

    /// Creates SP metadata; the ACS URL must be absolute http(s).
    public init(
        entityID: String, assertionConsumerServiceURL: String, signingCertificate: SAMLCertificate? = nil,
        encryptionCertificate: SAMLCertificate? = nil, nameIDFormats: [String] = [], wantAssertionsSigned: Bool = true
    ) throws(SAMLError) {
        guard !entityID.isEmpty else { throw SAMLError(.invalidMetadata, "the entity ID is empty") }
        try SAMLURL.requireHTTP(assertionConsumerServiceURL, role: "ACS URL")
        self.entityID = entityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.signingCertificate = signingCertificate
        self.encryptionCertificate = encryptionCertificate
        self.nameIDFormats = nameIDFormats
        self.wantAssertionsSigned = wantAssertionsSigned
    }

    /// The encryption algorithms advertised with the encryption certificate, most preferred first.
    static let advertisedEncryption = [
        "http://www.w3.org/2009/xmlenc11#aes256-gcm", "http://www.w3.org/2009/xmlenc11#aes128-gcm",
        "http://www.w3.org/2001/04/xmlenc#aes256-cbc", "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
        "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
    ]

    /// The EntityDescriptor as XML.
    public var xml: String {
        let md = SAMLNamespace.metadata
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<md:EntityDescriptor xmlns:md=\"\(md)\" xmlns:ds=\"\(SAMLNamespace.dsig)\""
        text += " entityID=\"\(XMLEscaping.escape(entityID))\">\n"
        text += "  <md:SPSSODescriptor AuthnRequestsSigned=\"\(signingCertificate != nil)\""
        text += " WantAssertionsSigned=\"\(wantAssertionsSigned)\""
        text += " protocolSupportEnumeration=\"\(SAMLNamespace.protocolNS)\">\n"
        for (use, certificate) in [("signing", signingCertificate), ("encryption", encryptionCertificate)] {
            guard let certificate else { continue }
            text += "    <md:KeyDescriptor use=\"\(use)\"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>"
            text += certificate.base64
            text += "</ds:X509Certificate></ds:X509Data></ds:KeyInfo>"
            if use == "encryption" {
                for algorithm in Self.advertisedEncryption {
                    text += "<md:EncryptionMethod Algorithm=\"\(algorithm)\"/>"
                }
            }
            text += "</md:KeyDescriptor>\n"
        }
        for format in nameIDFormats { text += "    <md:NameIDFormat>\(XMLEscaping.escape(format))</md:NameIDFormat>\n" }
        text += "    <md:AssertionConsumerService Binding=\"\(AuthnRequest.Binding.post)\""
        text += " Location=\"\(XMLEscaping.escape(assertionConsumerServiceURL))\" index=\"0\" isDefault=\"true\"/>\n"
        text += "  </md:SPSSODescriptor>\n</md:EntityDescriptor>\n"
        return text
    }
}
