import Foundation
import SSOKitCore

/// One run of the ``SAMLResponseCheck/standard`` checks: what each check established, for the checks after it.
///
/// A check reads the fields an earlier check set; reading one before it is set fails with `invalid_message`
/// instead of trapping (the fixed order of ``SAMLResponseCheck/standard`` never does).
struct ResponseValidation {
    let configuration: SAMLResponseVerifier.Configuration
    let now: Date
    let solicitation: SAMLResponseVerifier.Solicitation
    let xml: [UInt8]
    let verifier: EnvelopedSignatureVerifier

    /// Set by ``SAMLResponseCheck/document``.
    var tree: XMLTree?
    /// Set by ``SAMLResponseCheck/response``.
    var response: XMLElement?
    var responseID = ""
    /// Set by ``SAMLResponseCheck/singleAssertion``: the one assertion, plain or encrypted, if any.
    var carried: XMLElement?
    /// Set by ``SAMLResponseCheck/responseSignature``.
    var responseSigned = false
    /// Set by ``SAMLResponseCheck/assertionSignature``: the (decrypted) assertion and whether it was signed.
    var assertion: XMLElement?
    var assertionSigned = false
    /// Set by ``SAMLResponseCheck/assertion``.
    var assertionID = ""
    var issuer = ""
    /// Set by ``SAMLResponseCheck/subject``.
    var nameID: XMLElement?
    var subject: XMLElement?
    /// Set by ``SAMLResponseCheck/bearerConfirmation``.
    var confirmationExpiry: Date?
    /// Set by ``SAMLResponseCheck/authnStatement``.
    var authnStatement: XMLElement?
    var sessionNotOnOrAfter: Date?
    var authnInstant: Date?

    private static let success = "urn:oasis:names:tc:SAML:2.0:status:Success"

    init(
        configuration: SAMLResponseVerifier.Configuration, now: Date,
        solicitation: SAMLResponseVerifier.Solicitation, xml: [UInt8]
    ) {
        self.configuration = configuration
        self.now = now
        self.solicitation = solicitation
        self.xml = xml
        self.verifier = EnvelopedSignatureVerifier(
            certificates: configuration.identityProviderCertificates, insecureAllowSHA1: configuration.insecureAllowSHA1
        )
    }

    /// Runs `checks` in order and returns the assertion they accepted.
    mutating func run(_ checks: [SAMLResponseCheck]) throws(SAMLError) -> SAMLAssertion {
        for check in checks { try check(&self) }
        return try result()
    }

    /// `value`, which an earlier check set.
    static func required<Value>(_ value: Value?) throws(SAMLError) -> Value {
        guard let value else { throw SAMLError(.invalidMessage, "the Response checks ran out of order") }
        return value
    }

    func requiredResponse() throws(SAMLError) -> XMLElement { try Self.required(response) }

    // MARK: The Response

    mutating func parseDocument() throws(SAMLError) {
        tree = try XMLTree.parse(xml, limits: configuration.limits, scanningFor: SAMLNamespace.assertion)
    }

    mutating func readResponse() throws(SAMLError) {
        guard let root = try Self.required(tree).root, root.is("Response", in: SAMLNamespace.protocolNS) else {
            throw SAMLError(.invalidMessage, "the document is not a samlp:Response")
        }
        guard let id = root.attribute("ID"), !id.isEmpty, root.attribute("Version", equals: "2.0"),
            (root.withAttribute("IssueInstant", SAMLDateTime.parse(utf8:)) ?? nil) != nil
        else { throw SAMLError(.invalidMessage, "the Response lacks a valid ID, Version 2.0 or IssueInstant") }
        response = root
        responseID = id
    }

    mutating func locateAssertion() throws(SAMLError) {
        let scan = try Self.required(tree).scanForAssertionsOnce()
        guard scan.count <= 1, !scan.misplaced else {
            throw SAMLError(
                .signatureWrapping, "the document holds more than one assertion or one outside the Response")
        }
        carried = scan.first
    }

    mutating func verifyResponseSignature() throws(SAMLError) {
        let response = try requiredResponse()
        guard let signature = try EnvelopedSignatureVerifier.signature(of: response) else { return }
        try verifier.verify(signature, of: response)
        responseSigned = true
    }

    func checkStatus() throws(SAMLError) {
        guard let status = try requiredResponse().firstChild("Status", in: SAMLNamespace.protocolNS),
            let code = status.firstChild("StatusCode", in: SAMLNamespace.protocolNS)
        else { throw SAMLError(.invalidMessage, "the Response has no Status") }
        // The nested codes are read only for the error: on Success the top-level code settles it.
        if code.attribute("Value", equals: Self.success) { return }
        var codes: [String] = []
        var current: XMLElement? = code
        while let element = current, codes.count < 8 {
            codes.append(element.attribute("Value") ?? "")
            current = element.firstChild("StatusCode", in: SAMLNamespace.protocolNS)
        }
        guard codes.first == Self.success else {
            throw SAMLError(
                .statusNotSuccess, "the IdP answered \(codes.joined(separator: " / "))", statusCodes: codes)
        }
    }

    /// The assertion to read (decrypted when it came encrypted) and whether its own signature verified.
    ///
    /// An encrypted assertion is decrypted only after the policy's Response signature has verified. When no
    /// Response signature authenticates the ciphertext, nothing does until the assertion's own signature has
    /// verified, so every failure up to that point is the decryptor's one failure: a forged ciphertext learns
    /// nothing from the answer, whether it did not decrypt or decrypted to something else.
    mutating func verifyAssertionSignature() throws(SAMLError) {
        let carried = try Self.required(self.carried)
        let verifier = verifier
        func ownSignatureVerifies(_ assertion: XMLElement) throws(SAMLError) -> Bool {
            guard let signature = try EnvelopedSignatureVerifier.signature(of: assertion) else { return false }
            try verifier.verify(signature, of: assertion)
            return true
        }
        guard carried.is("EncryptedAssertion", in: SAMLNamespace.assertion) else {
            assertionSigned = try ownSignatureVerifies(carried)
            assertion = carried
            return
        }
        if !responseSigned, configuration.signaturePolicy == .response || configuration.signaturePolicy == .both {
            throw SAMLError(
                .signatureMissing,
                "the signature policy \(configuration.signaturePolicy.rawValue) is not met; nothing was decrypted")
        }
        let tree = try Self.required(self.tree)
        let decryptor = AssertionDecryptor(key: configuration.decryptionKey)
        let prepared = try decryptor.prepare(carried)
        if responseSigned {
            let decrypted = try decryptor.decrypt(prepared, in: tree, limits: configuration.limits)
            assertionSigned = try ownSignatureVerifies(decrypted)
            assertion = decrypted
            return
        }
        do throws(SAMLError) {
            let decrypted = try decryptor.decrypt(prepared, in: tree, limits: configuration.limits)
            guard try ownSignatureVerifies(decrypted) else { throw AssertionDecryptor.failure }
            assertionSigned = true
            assertion = decrypted
        } catch {
            throw AssertionDecryptor.failure
        }
    }

    func checkPolicy() throws(SAMLError) {
        let satisfied: Bool
        switch configuration.signaturePolicy {
        case .assertionCovered: satisfied = responseSigned || assertionSigned
        case .response: satisfied = responseSigned
        case .assertion: satisfied = assertionSigned
        case .both: satisfied = responseSigned && assertionSigned
        }
        guard satisfied else {
            throw SAMLError(
                .signatureMissing, "the signature policy \(configuration.signaturePolicy.rawValue) is not met")
        }
    }

    /// Destination, when present, must be this ACS; a signed Response must carry it (SAML Bindings §3.5.5.2), so
    /// that a signed Response meant for another SP's ACS cannot be replayed here.
    func checkDestination() throws(SAMLError) {
        let acs = configuration.assertionConsumerServiceURL
        guard let isACS = try requiredResponse().withAttribute("Destination", { XMLText.equals($0, acs) }) else {
            if responseSigned {
                throw SAMLError(.destinationMismatch, "the Response is signed but names no Destination")
            }
            return
        }
        guard isACS else {
            throw SAMLError(.destinationMismatch, "the Response's Destination is not this ACS URL")
        }
    }

    func checkResponseIssuer() throws(SAMLError) {
        guard let issuer = try requiredResponse().firstChild("Issuer", in: SAMLNamespace.assertion) else { return }
        if configuration.insecureSkipIssuerCheck { return }
        let expected = configuration.identityProviderEntityID
        guard !expected.isEmpty, issuer.textContent(equals: expected) else {
            throw SAMLError(.issuerMismatch, "the Response's Issuer is not the configured IdP")
        }
    }

    func checkIssuer(_ issuer: String, of element: String) throws(SAMLError) {
        if configuration.insecureSkipIssuerCheck { return }
        let expected = configuration.identityProviderEntityID
        guard !expected.isEmpty, issuer == expected else {
            throw SAMLError(.issuerMismatch, "the \(element)'s Issuer is not the configured IdP")
        }
    }

    func checkInResponseTo(_ value: String?, of element: String) throws(SAMLError) {
        switch solicitation {
        case .request(let id):
            guard let value, ConstantTime.equals(value, id) else {
                throw SAMLError(.inResponseToMismatch, "the \(element)'s InResponseTo does not match the request")
            }
        case .unsolicited:
            guard value == nil else {
                throw SAMLError(
                    .inResponseToMismatch, "the \(element) answers a request but was accepted as unsolicited")
            }
        }
    }

    func time(_ element: XMLElement, _ name: StaticString) throws(SAMLError) -> Date? {
        guard let parsed = element.withAttribute(name, SAMLDateTime.parse(utf8:)) else { return nil }
        guard let date = parsed else {
            throw SAMLError(.invalidMessage, "<\(element.localName)> has an invalid \(name)")
        }
        return date
    }

    func checkWindow(notBefore: Date?, notOnOrAfter: Date?, of element: String) throws(SAMLError) {
        if let notBefore, now.addingTimeInterval(configuration.clockSkew) < notBefore {
            throw SAMLError(.notYetValid, "the \(element) is not valid yet")
        }
        if let notOnOrAfter, now.addingTimeInterval(-configuration.clockSkew) >= notOnOrAfter {
            throw SAMLError(.expired, "the \(element) has expired")
        }
    }
}
