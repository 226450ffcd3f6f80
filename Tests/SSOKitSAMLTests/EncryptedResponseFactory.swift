import Crypto
import CryptoExtras
import Foundation

/// Encrypted Responses made on the spot for the CipherReference tests: a fixture's signed Assertion encrypted with
/// AES-256-GCM under a fresh session key that RSA-OAEP wraps for the SP key, the ciphertext either inline
/// (CipherValue) or left outside the document for a CipherReference to point at.
struct EncryptedResponseFactory {
    /// The ciphertext as a CipherReference without transforms reads it: nonce, ciphertext and tag, raw.
    let ciphertext: [UInt8]
    private let wrappedKey: String
    private let responseID: String

    /// Encrypts the signed Assertion of `fixtures/saml/responses/<fixture>.xml` to `keys/sp.key`'s public key.
    init(assertionOf fixture: String, responseID: String) throws {
        let document = try SAMLTestSupport.text("responses/\(fixture).xml")
        guard let start = document.range(of: "<saml:Assertion "), let end = document.range(of: "</saml:Assertion>")
        else { throw CocoaError(.fileReadCorruptFile) }
        // Self-contained: the prefix is declared on the Assertion itself (exclusive C14N makes that invisible to the
        // signature).
        let assertion = Data(
            document[start.lowerBound..<end.upperBound].replacingOccurrences(
                of: "<saml:Assertion ", with: "<saml:Assertion xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\" ",
                options: .anchored
            ).utf8)
        let sessionKey = SymmetricKey(size: .bits256)
        guard let sealed = try AES.GCM.seal(assertion, using: sessionKey).combined else {
            throw CocoaError(.coderInvalidValue)
        }
        ciphertext = Array(sealed)
        let spKey = try _RSA.Encryption.PrivateKey(pemRepresentation: SAMLTestSupport.text("keys/sp.key"))
        wrappedKey = try spKey.publicKey.encrypt(
            sessionKey.withUnsafeBytes { Data($0) }, padding: .PKCS1_OAEP
        ).base64EncodedString()
        self.responseID = responseID
    }

    /// The Response, unsigned (the Assertion inside carries the IdP's signature), with the ciphertext inline or, when
    /// `cipherReference` is given, behind a CipherReference with that URI.
    func response(cipherReference: String? = nil) -> [UInt8] {
        let cipherData =
            cipherReference.map { "<xenc:CipherReference URI=\"\($0)\"/>" }
            ?? "<xenc:CipherValue>\(Data(ciphertext).base64EncodedString())</xenc:CipherValue>"
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" \
            xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="\(responseID)" Version="2.0" \
            IssueInstant="2025-12-31T23:59:55Z" Destination="https://sp.example.com/saml/acs" \
            InResponseTo="_ssokit-req-0001">
            <saml:Issuer>https://idp.example.com/saml</saml:Issuer>
            <samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
            <saml:EncryptedAssertion>
            <xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#" \
            Type="http://www.w3.org/2001/04/xmlenc#Element">
            <xenc:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes256-gcm"/>
            <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><xenc:EncryptedKey>
            <xenc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"/>
            <xenc:CipherData><xenc:CipherValue>\(wrappedKey)</xenc:CipherValue></xenc:CipherData>
            </xenc:EncryptedKey></ds:KeyInfo>
            <xenc:CipherData>\(cipherData)</xenc:CipherData>
            </xenc:EncryptedData>
            </saml:EncryptedAssertion>
            </samlp:Response>
            """
        return Array(xml.utf8)
    }
}
