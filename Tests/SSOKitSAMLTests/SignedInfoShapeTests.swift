import Foundation
import SSOKitSAML
import Testing

/// What xmlsec may be given: a SignedInfo whose work is bounded before its SignatureValue is checked, and whose
/// attributes xmlsec reads as SSOKit reads them (each edit below is made to a validly signed Response).
@Suite("SignedInfo shape")
struct SignedInfoShapeTests {
    static let fixture = "assertion-signed-rsa-sha256-valid"
    static let envelopedTransform =
        #"<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>"#
    static let exclusiveTransform = #"<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>"#

    struct Edit: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let replacing: String
        let with: String
        let code: SAMLError.Code
    }

    static let edits: [Edit] = [
        Edit(
            testDescription: "a namespaced URI before the vetted one (xmlsec's xmlGetProp would read it)",
            replacing: "<ds:Reference URI=", with: ##"<ds:Reference xmlns:x="urn:x" x:URI="#xpointer(/)" URI="##,
            code: .malformedSignature),
        Edit(
            testDescription: "a namespaced Algorithm on a Transform",
            replacing: envelopedTransform,
            with: #"<ds:Transform xmlns:x="urn:x" x:Algorithm="urn:x" "#
                + #"Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>"#,
            code: .malformedSignature),
        Edit(
            testDescription: "a third transform", replacing: exclusiveTransform,
            with: exclusiveTransform + exclusiveTransform + exclusiveTransform, code: .malformedSignature),
        Edit(
            testDescription: "the same transform twice", replacing: exclusiveTransform,
            with: envelopedTransform, code: .malformedSignature),
        Edit(
            testDescription: "17 inclusive namespace prefixes", replacing: exclusiveTransform,
            with: prefixList(count: 17), code: .malformedSignature),
        Edit(
            testDescription: "a transform parameter other than InclusiveNamespaces", replacing: exclusiveTransform,
            with: #"<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#">"#
                + "<ds:XPath>1</ds:XPath></ds:Transform>",
            code: .malformedSignature),
        // Within the limits the shape passes; the edit then breaks the signature, as any edit of SignedInfo does.
        Edit(
            testDescription: "16 inclusive namespace prefixes (the limit) reach the signature check",
            replacing: exclusiveTransform, with: prefixList(count: 16), code: .invalidSignature),
    ]

    static func prefixList(count: Int) -> String {
        let prefixes = (1...count).map { "p\($0)" }.joined(separator: " ")
        return #"<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#">"#
            + #"<ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList=""#
            + prefixes + #""/></ds:Transform>"#
    }

    @Test("a signature of the wrong shape is refused before xmlsec sees it", arguments: edits)
    func refused(_ edit: Edit) throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(forCase: Self.fixture)
        let original = String(decoding: xml, as: UTF8.self)
        let edited = original.replacingOccurrences(of: edit.replacing, with: edit.with)
        try #require(edited != original)
        do {
            _ = try verifier.validate(xml: Array(edited.utf8), solicitation: solicitation)
            Issue.record("the edited Response was accepted")
        } catch {
            #expect(error.code == edit.code)
            #expect(error.rule == "assertion_signature")
        }
    }

    @Test("the unedited Response is valid")
    func unedited() throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(forCase: Self.fixture)
        #expect(try verifier.validate(xml: xml, solicitation: solicitation).assertionWasSigned)
    }

    /// libxml2 used to register an xml:id under its value as written (`a&#38;b`), beside the decoded `a&b` SSOKit
    /// registers, so an `ID` whose decoded value is that text was taken for a second use of the same ID.
    @Test("an ID equal to another element's xml:id as written is not a duplicate")
    func xmlIDAsWrittenIsNotRegistered() throws {
        let (verifier, solicitation, xml) = try SAMLTestSupport.verifier(forCase: Self.fixture)
        let notes =
            #"<samlp:Extensions><t:Note xmlns:t="urn:t" xml:id="a&amp;b"/><t:Note xmlns:t="urn:t" ID="a&amp;#38;b"/>"#
            + "</samlp:Extensions><samlp:Status>"
        let original = String(decoding: xml, as: UTF8.self)
        let edited = original.replacingOccurrences(of: "<samlp:Status>", with: notes)
        try #require(edited != original)
        #expect(try verifier.validate(xml: Array(edited.utf8), solicitation: solicitation).assertionWasSigned)
        // A real repeat is still refused.
        let repeated = original.replacingOccurrences(
            of: "<samlp:Status>",
            with: #"<samlp:Extensions><t:Note xmlns:t="urn:t" xml:id="a&amp;b"/><t:Note xmlns:t="urn:t" ID="a&amp;b"/>"#
                + "</samlp:Extensions><samlp:Status>")
        #expect(throws: SAMLError(.signatureWrapping, "")) {
            try verifier.validate(xml: Array(repeated.utf8), solicitation: solicitation)
        }
    }
}
