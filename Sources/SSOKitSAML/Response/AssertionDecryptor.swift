internal import CXMLSec

/// Decrypts an EncryptedAssertion in place with the SP's private key (SAML Core §2.3.4, XML Encryption): the session
/// key by RSA-OAEP, the content by AES-CBC or AES-GCM. KeyInfo is read only to find the EncryptedKey element.
///
/// Two steps. ``prepare(_:)`` judges what the sender chose in the open (structure, algorithms, inline CipherValue
/// only) and fails with a precise code. ``decrypt(_:in:limits:)`` runs the cryptography and reads the plaintext, and
/// fails in exactly one way, ``failure``, whatever went wrong: a session key that does not unwrap, a bad padding or
/// GCM tag, and a plaintext that is not one well-formed assertion all look the same, so that no answer serves as a
/// decryption oracle (Jager and Somorovsky, "How to Break XML Encryption", CCS 2011).
struct AssertionDecryptor {
    /// The one error every failure of ``decrypt(_:in:limits:)`` throws.
    static let failure = SAMLError(.decryptionFailed, "the encrypted assertion could not be decrypted")

    /// An EncryptedAssertion whose open parts passed every check.
    struct Prepared {
        let encryptedAssertion: XMLElement
        let encryptedData: XMLElement
        let encryptedKeys: [XMLElement]
        let key: SAMLPrivateKey
    }

    let key: SAMLPrivateKey?

    /// Checks the EncryptedAssertion's structure and algorithms without touching the ciphertext.
    func prepare(_ encryptedAssertion: XMLElement) throws(SAMLError) -> Prepared {
        guard let key else {
            throw SAMLError(.decryptionFailed, "the assertion is encrypted and no SP decryption key is configured")
        }
        var pointsAway = false
        encryptedAssertion.forEachDescendant {
            pointsAway = pointsAway || $0.is("CipherReference", in: SAMLNamespace.xmlenc)
        }
        if pointsAway {
            throw SAMLError(
                .cipherReferenceForbidden, "the EncryptedAssertion points at its ciphertext; only CipherValue is read")
        }
        let dataElements = encryptedAssertion.children("EncryptedData", in: SAMLNamespace.xmlenc)
        guard dataElements.count == 1, let encryptedData = dataElements.first else {
            throw SAMLError(.invalidMessage, "an EncryptedAssertion needs exactly one EncryptedData")
        }
        let contentAlgorithm =
            encryptedData.firstChild("EncryptionMethod", in: SAMLNamespace.xmlenc)?.attribute("Algorithm") ?? ""
        guard SignatureAlgorithms.contentEncryption.contains(contentAlgorithm) else {
            throw SAMLError(.unsupportedAlgorithm, "the content encryption \(contentAlgorithm) is not allowed")
        }
        let encryptedKeys =
            (encryptedData.firstChild("KeyInfo", in: SAMLNamespace.dsig)?.children(
                "EncryptedKey", in: SAMLNamespace.xmlenc)
                ?? []) + encryptedAssertion.children("EncryptedKey", in: SAMLNamespace.xmlenc)
        guard !encryptedKeys.isEmpty else {
            throw SAMLError(.decryptionFailed, "the EncryptedAssertion carries no EncryptedKey")
        }
        for encryptedKey in encryptedKeys {
            let transport =
                encryptedKey.firstChild("EncryptionMethod", in: SAMLNamespace.xmlenc)?.attribute("Algorithm") ?? ""
            guard SignatureAlgorithms.keyTransport.contains(transport) else {
                throw SAMLError(.unsupportedAlgorithm, "the key transport \(transport) is not allowed")
            }
        }
        for element in [encryptedData] + encryptedKeys {
            guard let cipherData = element.firstChild("CipherData", in: SAMLNamespace.xmlenc),
                cipherData.children.count == 1,
                cipherData.firstChild("CipherValue", in: SAMLNamespace.xmlenc) != nil
            else { throw SAMLError(.invalidMessage, "<\(element.localName)> needs exactly one CipherValue") }
        }
        return Prepared(
            encryptedAssertion: encryptedAssertion, encryptedData: encryptedData, encryptedKeys: encryptedKeys,
            key: key)
    }

    /// Replaces the EncryptedData by the assertion it holds and returns that assertion; throws only ``failure``.
    func decrypt(_ prepared: Prepared, in tree: XMLTree, limits: XMLLimits) throws(SAMLError) -> XMLElement {
        var caps = limits.parseLimits
        guard
            prepared.encryptedKeys.contains(where: {
                ssokit_xmlenc_decrypt(prepared.encryptedData.node, $0.node, prepared.key.key.pointer, &caps) == 0
            })
        else { throw Self.failure }
        let wrapper = prepared.encryptedAssertion
        let assertions = wrapper.children("Assertion", in: SAMLNamespace.assertion)
        guard assertions.count == 1, let assertion = assertions.first,
            wrapper.children.allSatisfy({
                $0.is("Assertion", in: SAMLNamespace.assertion) || $0.is("EncryptedKey", in: SAMLNamespace.xmlenc)
            }),
            !tree.exceeds(limits)
        else { throw Self.failure }
        // The plaintext joined the document: its IDs must still be unique and it must be the only new assertion.
        guard let rescan = try? tree.scanForAssertions(), rescan.count == 2,
            rescan.first?.isSameNode(as: wrapper) == true
        else { throw Self.failure }
        return assertion
    }
}
