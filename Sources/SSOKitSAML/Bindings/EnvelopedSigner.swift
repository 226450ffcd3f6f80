internal import CXMLSec

/// Adds an enveloped XML signature (exclusive C14N, SHA-256 digest) to the root of a document SSOKit wrote.
enum EnvelopedSigner {
    /// Signs the root element of `xml` (which must carry an `ID` and an Issuer child, after which the Signature goes,
    /// as SAML's schema orders it) and returns the signed document.
    static func sign(
        _ xml: String, key: SAMLPrivateKey, algorithm: SAMLSignatureAlgorithm? = nil, limits: XMLLimits = XMLLimits()
    ) throws(SAMLError) -> [UInt8] {
        let algorithm = algorithm ?? SAMLSignatureAlgorithm.default(for: key)
        guard algorithm != .rsaSHA1, algorithm.matches(key.key.family) else {
            throw SAMLError(.invalidKey, "the key does not fit the algorithm \(algorithm.uri)")
        }
        let tree = try XMLTree.parse(Array(xml.utf8), limits: limits)
        try tree.registerIDs()
        guard let root = tree.root, let id = root.attribute("ID") else {
            throw SAMLError(.signingFailed, "the element to sign has no ID")
        }
        let anchor = root.firstChild("Issuer", in: SAMLNamespace.assertion)
        guard ssokit_dsig_sign_enveloped(root.node, id, anchor?.node, key.key.pointer, algorithm.xmlsecAlgorithm) == 0
        else { throw SAMLError(.signingFailed, "xmlsec could not sign the message") }
        return tree.serialized()
    }
}
