import Foundation
import SSOKitSAML
import Testing

/// No answer tells how a forged ciphertext failed (Jager and Somorovsky, "How to Break XML Encryption", CCS 2011):
/// from key transport to the decrypted assertion's own signature, when no Response signature authenticates the
/// ciphertext, every failure is one code with one reason.
@Suite("EncryptedAssertion: no decryption oracle")
struct DecryptionOracleTests {
    /// Fixture cases that fail at each step: key transport, GCM tag, CBC padding, a plaintext that is not XML, two
    /// assertions, not an assertion, an assertion whose signature breaks, an unsigned assertion.
    static let failures = [
        "encrypted-to-attacker-key", "encrypted-gcm-tag-tampered", "encrypted-cbc-bad-padding",
        "encrypted-plaintext-not-xml", "encrypted-plaintext-two-assertions", "encrypted-plaintext-not-assertion",
        "encrypted-inner-signature-broken", "encrypted-assertion-unsigned",
    ]

    private func refusal(_ name: String) throws -> SAMLError {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(forCase: name)
        return try #require(throws: SAMLError.self, "\(name)") {
            _ = try verifier.validate(xml: xml, solicitation: solicitation)
        }
    }

    @Test("every step's failure gives decryption_failed with the same reason")
    func oneFailure() throws {
        let errors = try Self.failures.map(refusal)
        #expect(errors.allSatisfy { $0.code == .decryptionFailed }, "\(errors.map(\.code))")
        #expect(Set(errors.map(\.reason)).count == 1, "\(Set(errors.map(\.reason)))")
    }

    @Test("when the policy needs a Response signature, its absence is found before anything is decrypted")
    func responseSignatureFirst() throws {
        // The ciphertext of this case would not decrypt: signature_missing shows that it was never tried.
        #expect(try refusal("encrypted-policy-response-unsigned").code == .signatureMissing)
    }

    @Test("a signed Response authenticates the ciphertext, so its decrypted content is judged as usual")
    func signedResponseKeepsPreciseCodes() throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(
            forCase: "encrypted-aes128-cbc-response-signed-valid")
        #expect(try verifier.validate(xml: xml, solicitation: solicitation).nameID == "alice@example.com")
    }

    @Test("generated SP metadata advertises AES-GCM before AES-CBC, then RSA-OAEP key transport")
    func metadataPrefersGCM() throws {
        let certificate = try SAMLTestSupport.certificate("sp")
        let xml = try ServiceProviderMetadata(
            entityID: "https://sp.example.com/saml", assertionConsumerServiceURL: "https://sp.example.com/saml/acs",
            encryptionCertificate: certificate
        ).xml
        let advertised = xml.components(separatedBy: "<md:EncryptionMethod Algorithm=\"").dropFirst()
            .compactMap { $0.components(separatedBy: "\"").first }
        #expect(
            advertised == [
                "http://www.w3.org/2009/xmlenc11#aes256-gcm", "http://www.w3.org/2009/xmlenc11#aes128-gcm",
                "http://www.w3.org/2001/04/xmlenc#aes256-cbc", "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
                "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
            ])
        let unencrypted = try ServiceProviderMetadata(
            entityID: "https://sp.example.com/saml", assertionConsumerServiceURL: "https://sp.example.com/saml/acs")
        #expect(!unencrypted.xml.contains("EncryptionMethod"))
    }
}
