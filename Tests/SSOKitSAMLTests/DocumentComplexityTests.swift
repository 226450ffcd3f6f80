import Foundation
import SSOKitSAML
import Testing

/// Attributes per element and namespace declarations in scope are capped while parsing (and again over a decrypted
/// assertion): libxml2 builds attributes, and exclusive C14N sorts them and searches the declarations, in time that
/// grows faster than the document, before any signature is known to be valid.
@Suite("XML complexity limits")
struct DocumentComplexityTests {
    static let fixture = "assertion-signed-rsa-sha256-valid"

    /// The fixture's valid Response with an unsigned `samlp:Extensions` element before its Status carrying `markup`.
    static func response(withExtensions markup: String) throws -> [UInt8] {
        let original = try SAMLTestSupport.text("responses/\(fixture).xml")
        let edited = original.replacingOccurrences(
            of: "<samlp:Status>", with: "<samlp:Extensions \(markup)/><samlp:Status>")
        try #require(edited != original)
        return Array(edited.utf8)
    }

    static func attributes(_ count: Int) -> String { (1...count).map { "a\($0)=\"v\"" }.joined(separator: " ") }

    static func declarations(_ count: Int) -> String {
        (1...count).map { "xmlns:p\($0)=\"urn:ssokit:test:\($0)\"" }.joined(separator: " ")
    }

    @Test("64 attributes on one element are read; 65 are too_large, refused by the document check")
    func attributesPerElement() throws {
        let (verifier, solicitation, _) = try SAMLTestSupport.verifier(forCase: Self.fixture)
        #expect(
            try verifier.validate(xml: Self.response(withExtensions: Self.attributes(64)), solicitation: solicitation)
                .assertionWasSigned)
        let error = try #require(throws: SAMLError.self) {
            try verifier.validate(xml: Self.response(withExtensions: Self.attributes(65)), solicitation: solicitation)
        }
        #expect(error.code == .tooLarge)
        #expect(error.rule == "document")
    }

    /// libxml2 compares a tag's attributes pairwise before SSOKit's parse callbacks see the element, so a pass over
    /// the bytes refuses a tag with more `=` than the two limits together allow; `=` inside quoted values, comments
    /// and CDATA does not count.
    @Test("a tag with thousands of attributes is refused before libxml2 reads it; '=' in values and comments is not")
    func attributesCountedBeforeParsing() throws {
        let (verifier, solicitation, _) = try SAMLTestSupport.verifier(forCase: Self.fixture)
        // A repeated attribute is a fatal error as libxml2 reads the tag: too_large shows the bytes were refused first.
        let error = try #require(throws: SAMLError.self) {
            try verifier.validate(
                xml: Self.response(withExtensions: Self.attributes(5000) + " a1=\"again\""),
                solicitation: solicitation)
        }
        #expect(error.code == .tooLarge)
        let equalsSigns = String(repeating: "a=b ", count: 500)
        let original = try SAMLTestSupport.text("responses/\(Self.fixture).xml")
        let quiet = original.replacingOccurrences(
            of: "<samlp:Status>",
            with: "<samlp:Extensions note=\"\(equalsSigns)\" other='\(equalsSigns)'><!-- <x \(equalsSigns)> -->"
                + "<![CDATA[<y \(equalsSigns)>]]></samlp:Extensions><samlp:Status>")
        #expect(try verifier.validate(xml: Array(quiet.utf8), solicitation: solicitation).assertionWasSigned)
    }

    @Test("namespace declarations in scope past the limit are too_large; a smaller number is read")
    func namespaceDeclarationsInScope() throws {
        let (verifier, solicitation, _) = try SAMLTestSupport.verifier(forCase: Self.fixture)
        // The Response declares two prefixes of its own, so 60 more stay within 64 and 70 do not.
        #expect(
            try verifier.validate(
                xml: Self.response(withExtensions: Self.declarations(60)), solicitation: solicitation
            ).assertionWasSigned)
        let error = try #require(throws: SAMLError.self) {
            try verifier.validate(
                xml: Self.response(withExtensions: Self.declarations(70)), solicitation: solicitation)
        }
        #expect(error.code == .tooLarge)
    }

    @Test("declarations on sibling elements leave scope with them: many siblings of a few each are read")
    func siblingsDeclarationsLeaveScope() throws {
        let (verifier, solicitation, _) = try SAMLTestSupport.verifier(forCase: Self.fixture)
        let siblings = (1...100).map { "<t:Note xmlns:t=\"urn:t\" xmlns:u\($0)=\"urn:u\"/>" }.joined()
        let original = try SAMLTestSupport.text("responses/\(Self.fixture).xml")
        let edited = original.replacingOccurrences(
            of: "<samlp:Status>", with: "<samlp:Extensions>\(siblings)</samlp:Extensions><samlp:Status>")
        #expect(try verifier.validate(xml: Array(edited.utf8), solicitation: solicitation).assertionWasSigned)
    }

    /// The fixture's Response signed again by the IdP key after `edit`: the Assertion signed, encrypted to the SP, and
    /// the Response signed (so that a failure after decryption keeps its own code and an accepted one is valid).
    static func sealedResponse(editingAssertion edit: (String) -> String) throws -> [UInt8] {
        let original = try SAMLTestSupport.text("responses/\(fixture).xml")
        guard let start = original.range(of: "<ds:Signature"), let end = original.range(of: "</ds:Signature>") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var unsigned = original
        unsigned.removeSubrange(start.lowerBound..<end.upperBound)
        return try SAMLResponseSealer.seal(
            edit(unsigned), key: SAMLTestSupport.privateKey("idp"), signAssertion: true,
            encryptingFor: SAMLTestSupport.certificate("sp"), signResponse: true,
            limits: XMLLimits(maximumAttributesPerElement: 1000))
    }

    @Test("the limits hold for a decrypted assertion too, which joins the tree through xmlsec's parser")
    func decryptedAssertion() throws {
        let (verifier, solicitation, _) = try SAMLTestSupport.verifier(forCase: "encrypted-aes256-gcm-valid")
        func subject(withAttributes count: Int) throws -> [UInt8] {
            try Self.sealedResponse {
                $0.replacingOccurrences(of: "<saml:Subject>", with: "<saml:Subject \(Self.attributes(count))>")
            }
        }
        let within = try verifier.validate(xml: subject(withAttributes: 64), solicitation: solicitation)
        #expect(within.responseWasSigned && within.assertionWasSigned)
        let error = try #require(throws: SAMLError.self) {
            try verifier.validate(xml: subject(withAttributes: 65), solicitation: solicitation)
        }
        #expect(error.code == .decryptionFailed)
    }
}
