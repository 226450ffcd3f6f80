import Foundation
import SSOKitSAML
import Testing

@Suite("SAMLResponseCheck")
struct SAMLResponseCheckTests {
    struct RuleCase: Sendable, CustomTestStringConvertible {
        let fixture: String
        let code: SAMLError.Code
        let rule: String
        var testDescription: String { "\(fixture) → \(rule)" }
    }

    /// One fixture per check (and for the encoding step): the code the fixtures expect, and the check that refuses.
    static let ruleCases: [RuleCase] = [
        RuleCase(fixture: "garbage-base64", code: .invalidEncoding, rule: "encoding"),
        RuleCase(fixture: "truncated-xml", code: .malformedXML, rule: "document"),
        RuleCase(fixture: "xxe-external-entity", code: .doctypeForbidden, rule: "document"),
        RuleCase(fixture: "response-missing-id", code: .invalidMessage, rule: "response"),
        RuleCase(fixture: "two-assertions", code: .signatureWrapping, rule: "single_assertion"),
        RuleCase(
            fixture: "response-signature-broken-assertion-signed", code: .invalidSignature, rule: "response_signature"),
        RuleCase(fixture: "status-responder", code: .statusNotSuccess, rule: "status"),
        RuleCase(fixture: "no-assertion-success", code: .missingAssertion, rule: "assertion_present"),
        RuleCase(fixture: "nameid-edited-after-signing", code: .invalidSignature, rule: "assertion_signature"),
        RuleCase(fixture: "encrypted-no-sp-key", code: .decryptionFailed, rule: "assertion_signature"),
        RuleCase(fixture: "signature-stripped", code: .signatureMissing, rule: "signature_policy"),
        RuleCase(fixture: "destination-mismatch", code: .destinationMismatch, rule: "destination"),
        RuleCase(fixture: "response-issuer-mismatch", code: .issuerMismatch, rule: "response_issuer"),
        RuleCase(fixture: "in-response-to-mismatch", code: .inResponseToMismatch, rule: "response_in_response_to"),
        RuleCase(fixture: "assertion-issuer-mismatch", code: .issuerMismatch, rule: "assertion_issuer"),
        RuleCase(
            fixture: "bearer-confirmation-missing", code: .subjectConfirmationMissing, rule: "bearer_confirmation"),
        RuleCase(fixture: "recipient-mismatch", code: .recipientMismatch, rule: "bearer_confirmation"),
        RuleCase(fixture: "conditions-expired", code: .expired, rule: "conditions"),
        RuleCase(fixture: "audience-mismatch", code: .audienceMismatch, rule: "audience"),
    ]

    @Test("a rejection keeps the fixture's code and names the check that refused it", arguments: ruleCases)
    func rejectionNamesItsRule(_ rule: RuleCase) throws {
        let (verifier, solicitation, bytes) = try SAMLTestSupport.verifier(forCase: rule.fixture)
        do {
            if rule.fixture == "garbage-base64" {
                _ = try verifier.validate(
                    postedResponse: String(decoding: bytes, as: UTF8.self), solicitation: solicitation)
            } else {
                _ = try verifier.validate(xml: bytes, solicitation: solicitation)
            }
            Issue.record("\(rule.fixture) was accepted")
        } catch {
            #expect(error.code == rule.code)
            #expect(error.rule == rule.rule)
        }
    }

    @Test("the standard checks run in the documented order, each name once")
    func standardOrder() {
        #expect(
            SAMLResponseCheck.standard.map(\.name) == [
                "document", "response", "single_assertion", "response_signature", "status", "assertion_present",
                "assertion_signature", "signature_policy", "destination", "response_issuer", "response_in_response_to",
                "assertion", "assertion_issuer", "subject", "bearer_confirmation", "conditions", "audience",
                "authn_statement",
            ])
    }
}
