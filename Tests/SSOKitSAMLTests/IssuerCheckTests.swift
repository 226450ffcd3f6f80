import SSOKitSAML
import Testing

@Suite("The Issuer check and its opt-out")
struct IssuerCheckTests {
    @Test("an Assertion Issuer naming another IdP is issuer_mismatch unless insecureSkipIssuerCheck is set")
    func skipIsExplicit() throws {
        let (strict, solicitation, xml) = try SAMLTestSupport.verifier(forCase: "assertion-issuer-mismatch")
        #expect(!strict.configuration.insecureSkipIssuerCheck)
        #expect(throws: SAMLError(.issuerMismatch, "")) { try strict.validate(xml: xml, solicitation: solicitation) }

        let (skipping, _, _) = try SAMLTestSupport.verifier(forCase: "assertion-issuer-mismatch") {
            $0.insecureSkipIssuerCheck = true
        }
        #expect(try skipping.validate(xml: xml, solicitation: solicitation).issuer != "https://idp.example.com/saml")
    }

    @Test("an empty IdP entity ID without the opt-out matches no Issuer: a valid Response is refused")
    func emptyEntityIDFailsClosed() throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(
            forCase: "assertion-signed-rsa-sha256-valid"
        ) { $0.identityProviderEntityID = "" }
        #expect(throws: SAMLError(.issuerMismatch, "")) { try verifier.validate(xml: xml, solicitation: solicitation) }
    }
}
