internal import CXMLSec

/// What an identity provider does to a Response it wrote before it sends it (SAML Core §5, §6): signs the one
/// Assertion, encrypts it to the service provider's certificate (into a `saml:EncryptedAssertion`), then signs the
/// Response, in that order, so that the assertion's own signature is still there after decryption.
///
/// Signatures are enveloped, exclusive C14N with SHA-256 digests, made by xmlsec; encryption is AES-256-GCM under a
/// fresh session key, wrapped with RSA-OAEP-MGF1P, also by xmlsec. For `ssokit dev-idp`; SSOKit's SP side never
/// calls it.
package enum SAMLResponseSealer {
    /// Seals `xml`, a `samlp:Response` whose root and `saml:Assertion` child (if any: an error Response has none)
    /// each carry an `ID` and an Issuer first child, and returns the document to base64-encode. `limits` are those
    /// `xml` is read under (tests pass wider ones to make documents that a verifier must refuse).
    package static func seal(
        _ xml: String, key: SAMLPrivateKey, signAssertion: Bool, encryptingFor certificate: SAMLCertificate?,
        signResponse: Bool, limits: XMLLimits = XMLLimits()
    ) throws(SAMLError) -> [UInt8] {
        let algorithm = SAMLSignatureAlgorithm.default(for: key)
        let tree = try XMLTree.parse(Array(xml.utf8), limits: limits)
        let scan = try tree.scanForAssertions()
        guard tree.root?.is("Response", in: SAMLNamespace.protocolNS) == true, scan.count <= 1, !scan.misplaced else {
            throw SAMLError(.invalidMessage, "a Response to seal holds at most one Assertion, as a direct child")
        }
        if let assertion = scan.first {
            try seal(assertion, key: key, algorithm: algorithm, sign: signAssertion, encryptingFor: certificate)
        }
        let sealed = tree.serialized()
        guard signResponse else { return sealed }
        return try EnvelopedSigner.sign(
            String(decoding: sealed, as: UTF8.self), key: key, algorithm: algorithm, limits: limits)
    }

    private static func seal(
        _ assertion: XMLElement, key: SAMLPrivateKey, algorithm: SAMLSignatureAlgorithm, sign: Bool,
        encryptingFor certificate: SAMLCertificate?
    ) throws(SAMLError) {
        guard assertion.is("Assertion", in: SAMLNamespace.assertion), let assertionID = assertion.attribute("ID") else {
            throw SAMLError(.invalidMessage, "the assertion to seal is not a saml:Assertion with an ID")
        }
        if sign {
            let anchor = assertion.firstChild("Issuer", in: SAMLNamespace.assertion)
            guard
                ssokit_dsig_sign_enveloped(
                    assertion.node, assertionID, anchor?.node, key.key.pointer, algorithm.xmlsecAlgorithm) == 0
            else { throw SAMLError(.signingFailed, "xmlsec could not sign the assertion") }
        }
        if let certificate {
            guard certificate.publicKey.family == .rsa else {
                throw SAMLError(.invalidKey, "assertions are encrypted only to RSA certificates (RSA-OAEP)")
            }
            guard
                ssokit_node_wrap(assertion.node, SAMLNamespace.assertion.cString, "saml", "EncryptedAssertion") != nil,
                ssokit_xmlenc_encrypt(assertion.node, certificate.publicKey.pointer) == 0
            else { throw SAMLError(.invalidKey, "xmlsec could not encrypt the assertion to the certificate") }
        }
    }
}
