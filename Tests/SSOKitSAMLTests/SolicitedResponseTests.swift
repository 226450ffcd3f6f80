import Foundation
import SSOKitSAML
import Testing

/// A solicited Response must bind its assertion to the request (SAML Profiles §4.1.4.2-4.1.4.3).
@Suite("Solicited responses bind the assertion")
struct SolicitedResponseTests {
    @Test("an IdP-initiated assertion re-wrapped in a new unsigned Response that names the request is refused")
    func rewrappedUnsolicitedAssertion() throws {
        let (verifier, _, xml) = try SAMLTestSupport.verifier(forCase: "unsolicited-allowed-valid")
        // The captured assertion is signed and answers no request; the Response around it is unsigned, so anyone
        // can give it the InResponseTo of a request they started.
        var rewrapped = String(decoding: xml, as: UTF8.self)
        let responseVersion = try #require(rewrapped.range(of: "Version=\"2.0\""))  // the Response's, first
        rewrapped.replaceSubrange(responseVersion, with: "InResponseTo=\"_victim-request\" Version=\"2.0\"")
        #expect(throws: SAMLError(.inResponseToMismatch, "")) {
            try verifier.validate(xml: Array(rewrapped.utf8), solicitation: .request(id: "_victim-request"))
        }
        // As an unsolicited Response it is still what it was.
        #expect(try verifier.validate(xml: xml, solicitation: .unsolicited).nameID == "alice@example.com")
    }

    @Test("a signed Response that names the request binds an assertion whose confirmation does not")
    func signedResponseBinds() throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(
            forCase: "scd-no-in-response-to-signed-response-valid")
        #expect(try verifier.validate(xml: xml, solicitation: solicitation).responseWasSigned)
    }

    @Test("a signed Response without Destination is destination_mismatch; an unsigned one may omit it")
    func destinationOnSignedResponses() throws {
        let (signed, solicitation, signedXML) = try SAMLTestSupport.verifier(forCase: "signed-response-no-destination")
        #expect(throws: SAMLError(.destinationMismatch, "")) {
            try signed.validate(xml: signedXML, solicitation: solicitation)
        }
        let (unsigned, _, unsignedXML) = try SAMLTestSupport.verifier(forCase: "no-destination-valid")
        #expect(try !unsigned.validate(xml: unsignedXML, solicitation: solicitation).responseWasSigned)
    }
}
