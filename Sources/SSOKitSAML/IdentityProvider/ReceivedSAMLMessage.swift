import Foundation

/// A SAML protocol message as an identity provider receives it from a service provider: an `AuthnRequest`
/// (SAML Core §3.4.1), a `LogoutRequest` (§3.7.1) or a `LogoutResponse` (§3.7.2), read from the XML that a binding
/// decoded. Nothing here is trusted yet: the caller checks the issuer, the signature and every value.
package struct ReceivedSAMLMessage: Sendable, Hashable {
    /// The root element's local name, e.g. `AuthnRequest`.
    package var messageName: String
    /// `ID`.
    package var id: String
    /// `Version`.
    package var version: String?
    /// `IssueInstant`, when present and a valid dateTime.
    package var issueInstant: Date?
    /// `Destination`.
    package var destination: String?
    /// The `saml:Issuer` child's text.
    package var issuer: String?
    /// `AssertionConsumerServiceURL` (AuthnRequest).
    package var assertionConsumerServiceURL: String?
    /// `AssertionConsumerServiceIndex` (AuthnRequest).
    package var assertionConsumerServiceIndex: String?
    /// `ProtocolBinding` (AuthnRequest).
    package var protocolBinding: String?
    /// The NameIDPolicy's `Format` (AuthnRequest).
    package var nameIDPolicyFormat: String?
    /// `ForceAuthn="true"` (AuthnRequest).
    package var forceAuthn: Bool
    /// `IsPassive="true"` (AuthnRequest).
    package var isPassive: Bool
    /// The `saml:NameID` child's text (LogoutRequest).
    package var nameID: String?
    /// Every `samlp:SessionIndex` (LogoutRequest).
    package var sessionIndexes: [String]
    /// `InResponseTo` (LogoutResponse).
    package var inResponseTo: String?
    /// The top-level StatusCode's `Value` (LogoutResponse).
    package var statusCode: String?
    /// Whether the root carries an enveloped `ds:Signature` (verified only by ``verifyEnvelopedSignature``).
    package var hasEnvelopedSignature: Bool

    /// Reads a message under `limits` (DOCTYPE refused, size and depth capped); `invalid_message` unless the root is
    /// a SAML 2.0 protocol element with an ID.
    package static func read(_ xml: [UInt8], limits: XMLLimits = XMLLimits()) throws(SAMLError) -> Self {
        let tree = try XMLTree.parse(xml, limits: limits)
        guard let root = tree.root, root.namespaceURI == "\(SAMLNamespace.protocolNS)", let id = root.attribute("ID"),
            !id.isEmpty
        else { throw SAMLError(.invalidMessage, "the message is not a SAML protocol message with an ID") }
        let policy = root.firstChild("NameIDPolicy", in: SAMLNamespace.protocolNS)
        return ReceivedSAMLMessage(
            messageName: root.localName, id: id, version: root.attribute("Version"),
            issueInstant: root.attribute("IssueInstant").flatMap(SAMLDateTime.parse),
            destination: root.attribute("Destination"),
            issuer: root.firstChild("Issuer", in: SAMLNamespace.assertion)?.textContent,
            assertionConsumerServiceURL: root.attribute("AssertionConsumerServiceURL"),
            assertionConsumerServiceIndex: root.attribute("AssertionConsumerServiceIndex"),
            protocolBinding: root.attribute("ProtocolBinding"), nameIDPolicyFormat: policy?.attribute("Format"),
            forceAuthn: isTrue(root.attribute("ForceAuthn")), isPassive: isTrue(root.attribute("IsPassive")),
            nameID: root.firstChild("NameID", in: SAMLNamespace.assertion)?.textContent,
            sessionIndexes: root.children("SessionIndex", in: SAMLNamespace.protocolNS).map(\.textContent),
            inResponseTo: root.attribute("InResponseTo"),
            statusCode: root.firstChild("Status", in: SAMLNamespace.protocolNS)?
                .firstChild("StatusCode", in: SAMLNamespace.protocolNS)?.attribute("Value"),
            hasEnvelopedSignature: try EnvelopedSignatureVerifier.signature(of: root) != nil)
    }

    /// Verifies the enveloped signature on the root of `xml` (the HTTP-POST binding, SAML Bindings §3.5.4) with the
    /// pinned `certificates` only, with every wrapping defence of the Response verifier: `signature_missing` when
    /// there is none, `invalid_signature`, `signature_wrapping` or `unsupported_algorithm` when it does not hold.
    package static func verifyEnvelopedSignature(
        _ xml: [UInt8], certificates: [SAMLCertificate], limits: XMLLimits = XMLLimits()
    ) throws(SAMLError) {
        let tree = try XMLTree.parse(xml, limits: limits)
        try tree.registerIDs()
        guard let root = tree.root else { throw SAMLError(.malformedXML, "the document has no root element") }
        guard let signature = try EnvelopedSignatureVerifier.signature(of: root) else {
            throw SAMLError(.signatureMissing, "the message carries no enveloped signature")
        }
        try EnvelopedSignatureVerifier(certificates: certificates, insecureAllowSHA1: false).verify(signature, of: root)
    }

    private static func isTrue(_ value: String?) -> Bool { value == "true" || value == "1" }
}
