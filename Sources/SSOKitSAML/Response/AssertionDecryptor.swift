internal import CXMLSec

/// Decrypts an EncryptedAssertion in place with the SP's private key (SAML Core §2.3.4, XML Encryption): the session
/// key by RSA-OAEP, the content by AES-CBC or AES-GCM. KeyInfo is read only to find the EncryptedKey element.
struct AssertionDecryptor {
    let key: SAMLPrivateKey?

    /// Replaces the EncryptedData inside `encryptedAssertion` by the assertion it holds and returns that assertion.
    func decrypt(_ encryptedAssertion: XMLElement) throws(SAMLError) -> XMLElement {
        guard let key else {
            throw SAMLError(.decryptionFailed, "the assertion is encrypted and no SP decryption key is configured")
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
        let candidates =
            (encryptedData.firstChild("KeyInfo", in: SAMLNamespace.dsig)?.children(
                "EncryptedKey", in: SAMLNamespace.xmlenc)
                ?? []) + encryptedAssertion.children("EncryptedKey", in: SAMLNamespace.xmlenc)
        guard !candidates.isEmpty else {
            throw SAMLError(.decryptionFailed, "the EncryptedAssertion carries no EncryptedKey")
        }
        var lastFailure = SAMLError(.decryptionFailed, "no EncryptedKey could be decrypted with the SP key")
        for encryptedKey in candidates {
            let transport =
                encryptedKey.firstChild("EncryptionMethod", in: SAMLNamespace.xmlenc)?.attribute("Algorithm") ?? ""
            guard SignatureAlgorithms.keyTransport.contains(transport) else {
                lastFailure = SAMLError(.unsupportedAlgorithm, "the key transport \(transport) is not allowed")
                continue
            }
            switch ssokit_xmlenc_decrypt(encryptedData.node, encryptedKey.node, key.key.pointer) {
            case 0:
                let assertions = encryptedAssertion.children("Assertion", in: SAMLNamespace.assertion)
                guard assertions.count == 1, let assertion = assertions.first,
                    encryptedAssertion.children.allSatisfy({
                        $0.is("Assertion", in: SAMLNamespace.assertion)
                            || $0.is("EncryptedKey", in: SAMLNamespace.xmlenc)
                    })
                else {
                    throw SAMLError(.signatureWrapping, "the decrypted content is not exactly one assertion")
                }
                return assertion
            case 2:
                throw SAMLError(.decryptionFailed, "the encrypted assertion could not be decrypted")
            default:
                lastFailure = SAMLError(.decryptionFailed, "the session key could not be decrypted with the SP key")
            }
        }
        throw lastFailure
    }
}
