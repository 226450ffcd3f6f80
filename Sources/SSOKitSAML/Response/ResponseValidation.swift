import Foundation
import SSOKitCore

/// One run of the Response checks over a parsed tree (SAML Core §3.2.2, §2.3–2.7; Profiles §4.1.4.2–4.1.4.3).
struct ResponseValidation {
    let configuration: SAMLResponseVerifier.Configuration
    let now: Date
    let solicitation: SAMLResponseVerifier.Solicitation

    private static let success = "urn:oasis:names:tc:SAML:2.0:status:Success"
    private static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"

    func run(on tree: XMLTree) throws(SAMLError) -> SAMLAssertion {
        guard let response = tree.root, response.is("Response", in: SAMLNamespace.protocolNS) else {
            throw SAMLError(.invalidMessage, "the document is not a samlp:Response")
        }
        guard let responseID = response.attribute("ID"), !responseID.isEmpty, response.attribute("Version") == "2.0",
            response.attribute("IssueInstant").flatMap(SAMLDateTime.parse) != nil
        else { throw SAMLError(.invalidMessage, "the Response lacks a valid ID, Version 2.0 or IssueInstant") }
        let scan = try tree.scanForAssertions()
        guard scan.count <= 1, !scan.misplaced else {
            throw SAMLError(
                .signatureWrapping, "the document holds more than one assertion or one outside the Response")
        }
        let carried = scan.first

        let verifier = EnvelopedSignatureVerifier(
            certificates: configuration.identityProviderCertificates, insecureAllowSHA1: configuration.insecureAllowSHA1
        )
        var responseSigned = false
        if let signature = try EnvelopedSignatureVerifier.signature(of: response) {
            try verifier.verify(signature, of: response)
            responseSigned = true
        }
        try checkStatus(of: response)
        guard let carried else { throw SAMLError(.missingAssertion, "the Response carries no assertion") }

        let (assertion, assertionSigned) = try signedAssertion(
            carried, in: tree, responseSigned: responseSigned, verifier: verifier)
        try checkPolicy(responseSigned: responseSigned, assertionSigned: assertionSigned)
        try checkDestination(of: response, responseSigned: responseSigned)
        if let responseIssuer = response.firstChild("Issuer", in: SAMLNamespace.assertion) {
            try checkIssuer(responseIssuer.textContent, of: "Response")
        }
        try checkInResponseTo(response.attribute("InResponseTo"), of: "Response")
        return try readAssertion(
            assertion, responseID: responseID, inResponseTo: response.attribute("InResponseTo"),
            responseSigned: responseSigned, assertionSigned: assertionSigned)
    }

    // MARK: Structure

    /// The assertion to read (decrypted when it came encrypted) and whether its own signature verified.
    ///
    /// An encrypted assertion is decrypted only after the policy's Response signature has verified. When no
    /// Response signature authenticates the ciphertext, nothing does until the assertion's own signature has
    /// verified, so every failure up to that point is the decryptor's one failure: a forged ciphertext learns
    /// nothing from the answer, whether it did not decrypt or decrypted to something else.
    private func signedAssertion(
        _ carried: XMLElement, in tree: XMLTree, responseSigned: Bool, verifier: EnvelopedSignatureVerifier
    ) throws(SAMLError) -> (XMLElement, Bool) {
        func ownSignatureVerifies(_ assertion: XMLElement) throws(SAMLError) -> Bool {
            guard let signature = try EnvelopedSignatureVerifier.signature(of: assertion) else { return false }
            try verifier.verify(signature, of: assertion)
            return true
        }
        guard carried.is("EncryptedAssertion", in: SAMLNamespace.assertion) else {
            return (carried, try ownSignatureVerifies(carried))
        }
        if !responseSigned, configuration.signaturePolicy == .response || configuration.signaturePolicy == .both {
            throw SAMLError(
                .signatureMissing,
                "the signature policy \(configuration.signaturePolicy.rawValue) is not met; nothing was decrypted")
        }
        let decryptor = AssertionDecryptor(key: configuration.decryptionKey)
        let prepared = try decryptor.prepare(carried)
        if responseSigned {
            let assertion = try decryptor.decrypt(prepared, in: tree, limits: configuration.limits)
            return (assertion, try ownSignatureVerifies(assertion))
        }
        do throws(SAMLError) {
            let assertion = try decryptor.decrypt(prepared, in: tree, limits: configuration.limits)
            guard try ownSignatureVerifies(assertion) else { throw AssertionDecryptor.failure }
            return (assertion, true)
        } catch {
            throw AssertionDecryptor.failure
        }
    }

    // MARK: Checks

    private func checkStatus(of response: XMLElement) throws(SAMLError) {
        guard let status = response.firstChild("Status", in: SAMLNamespace.protocolNS),
            let code = status.firstChild("StatusCode", in: SAMLNamespace.protocolNS)
        else { throw SAMLError(.invalidMessage, "the Response has no Status") }
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

    private func checkPolicy(responseSigned: Bool, assertionSigned: Bool) throws(SAMLError) {
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
    private func checkDestination(of response: XMLElement, responseSigned: Bool) throws(SAMLError) {
        guard let destination = response.attribute("Destination") else {
            if responseSigned {
                throw SAMLError(.destinationMismatch, "the Response is signed but names no Destination")
            }
            return
        }
        guard destination == configuration.assertionConsumerServiceURL else {
            throw SAMLError(.destinationMismatch, "the Response's Destination is not this ACS URL")
        }
    }

    private func checkIssuer(_ issuer: String, of element: String) throws(SAMLError) {
        if configuration.insecureSkipIssuerCheck { return }
        let expected = configuration.identityProviderEntityID
        guard !expected.isEmpty, issuer == expected else {
            throw SAMLError(.issuerMismatch, "the \(element)'s Issuer is not the configured IdP")
        }
    }

    private func checkInResponseTo(_ value: String?, of element: String) throws(SAMLError) {
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

    private func time(_ element: XMLElement, _ name: StaticString) throws(SAMLError) -> Date? {
        guard let text = element.attribute(name) else { return nil }
        guard let date = SAMLDateTime.parse(text) else {
            throw SAMLError(.invalidMessage, "<\(element.localName)> has an invalid \(name)")
        }
        return date
    }

    private func checkWindow(notBefore: Date?, notOnOrAfter: Date?, of element: String) throws(SAMLError) {
        if let notBefore, now.addingTimeInterval(configuration.clockSkew) < notBefore {
            throw SAMLError(.notYetValid, "the \(element) is not valid yet")
        }
        if let notOnOrAfter, now.addingTimeInterval(-configuration.clockSkew) >= notOnOrAfter {
            throw SAMLError(.expired, "the \(element) has expired")
        }
    }

    // MARK: The assertion

    private func readAssertion(
        _ assertion: XMLElement, responseID: String, inResponseTo: String?, responseSigned: Bool,
        assertionSigned: Bool
    ) throws(SAMLError) -> SAMLAssertion {
        guard let assertionID = assertion.attribute("ID"), !assertionID.isEmpty,
            assertion.attribute("Version") == "2.0", try time(assertion, "IssueInstant") != nil,
            let issuerElement = assertion.firstChild("Issuer", in: SAMLNamespace.assertion)
        else { throw SAMLError(.invalidMessage, "the Assertion lacks a valid ID, Version 2.0, IssueInstant or Issuer") }
        let issuer = issuerElement.textContent
        try checkIssuer(issuer, of: "Assertion")

        guard let subject = assertion.firstChild("Subject", in: SAMLNamespace.assertion) else {
            throw SAMLError(.invalidMessage, "the Assertion has no Subject")
        }
        guard let nameIDElement = subject.firstChild("NameID", in: SAMLNamespace.assertion),
            !nameIDElement.hasElementChildren
        else { throw SAMLError(.invalidMessage, "the Subject has no plain NameID") }
        let confirmationExpiry = try checkBearerConfirmation(in: subject, responseSigned: responseSigned)

        let conditions = assertion.firstChild("Conditions", in: SAMLNamespace.assertion)
        if let conditions {
            try checkWindow(
                notBefore: try time(conditions, "NotBefore"), notOnOrAfter: try time(conditions, "NotOnOrAfter"),
                of: "assertion")
        }
        try checkAudience(conditions)

        guard let authn = assertion.firstChild("AuthnStatement", in: SAMLNamespace.assertion) else {
            throw SAMLError(.invalidMessage, "the Assertion has no AuthnStatement")
        }
        let sessionNotOnOrAfter = try time(authn, "SessionNotOnOrAfter")
        try checkWindow(notBefore: nil, notOnOrAfter: sessionNotOnOrAfter, of: "IdP session")

        return SAMLAssertion(
            issuer: issuer, nameID: nameIDElement.textContent, nameIDFormat: nameIDElement.attribute("Format"),
            nameIDSPNameQualifier: nameIDElement.attribute("SPNameQualifier"),
            sessionIndex: authn.attribute("SessionIndex"), authnInstant: try time(authn, "AuthnInstant"),
            sessionNotOnOrAfter: sessionNotOnOrAfter, assertionID: assertionID, responseID: responseID,
            inResponseTo: inResponseTo, attributes: readAttributes(of: assertion),
            notOnOrAfter: confirmationExpiry, responseWasSigned: responseSigned,
            assertionWasSigned: assertionSigned)
    }

    /// At least one bearer SubjectConfirmation must pass every rule (Profiles §4.1.4.2); returns its NotOnOrAfter.
    ///
    /// For a solicited Response, the confirmation's InResponseTo binds the assertion to the request. It may be absent
    /// only when the Response itself is signed (its InResponseTo, already checked, then binds the assertion):
    /// otherwise an IdP-initiated assertion re-wrapped in a new unsigned Response would pass as an answer.
    private func checkBearerConfirmation(in subject: XMLElement, responseSigned: Bool) throws(SAMLError) -> Date {
        let bearers = subject.children("SubjectConfirmation", in: SAMLNamespace.assertion)
            .filter { $0.attribute("Method") == Self.bearer }
        guard !bearers.isEmpty else {
            throw SAMLError(.subjectConfirmationMissing, "the Subject has no bearer SubjectConfirmation")
        }
        var firstFailure: SAMLError?
        for bearer in bearers {
            do throws(SAMLError) {
                guard let data = bearer.firstChild("SubjectConfirmationData", in: SAMLNamespace.assertion) else {
                    throw SAMLError(.subjectConfirmationMissing, "the bearer confirmation has no data")
                }
                guard data.attribute("Recipient") == configuration.assertionConsumerServiceURL else {
                    throw SAMLError(.recipientMismatch, "the bearer confirmation's Recipient is not this ACS URL")
                }
                guard let expiry = try time(data, "NotOnOrAfter") else {
                    throw SAMLError(.invalidMessage, "the bearer confirmation has no NotOnOrAfter")
                }
                try checkWindow(notBefore: try time(data, "NotBefore"), notOnOrAfter: expiry, of: "bearer confirmation")
                try checkInResponseTo(
                    data.attribute("InResponseTo"), of: "bearer confirmation", optional: responseSigned)
                return expiry
            } catch {
                if firstFailure == nil { firstFailure = error }
            }
        }
        throw firstFailure ?? SAMLError(.subjectConfirmationMissing, "no bearer confirmation is valid")
    }

    private func checkInResponseTo(_ value: String?, of element: String, optional: Bool) throws(SAMLError) {
        if optional, value == nil { return }
        try checkInResponseTo(value, of: element)
    }

    /// Every AudienceRestriction must name this SP (Core §2.5.1.4); the profile requires at least one.
    private func checkAudience(_ conditions: XMLElement?) throws(SAMLError) {
        let restrictions = conditions?.children("AudienceRestriction", in: SAMLNamespace.assertion) ?? []
        guard !restrictions.isEmpty else {
            throw SAMLError(.audienceMismatch, "the assertion has no AudienceRestriction")
        }
        for restriction in restrictions {
            let audiences = restriction.children("Audience", in: SAMLNamespace.assertion).map(\.textContent)
            guard audiences.contains(configuration.serviceProviderEntityID) else {
                throw SAMLError(.audienceMismatch, "the AudienceRestriction does not name this SP")
            }
        }
    }

    private func readAttributes(of assertion: XMLElement) -> [SAMLAttribute] {
        var attributes: [SAMLAttribute] = []
        for statement in assertion.children("AttributeStatement", in: SAMLNamespace.assertion) {
            for attribute in statement.children("Attribute", in: SAMLNamespace.assertion) {
                guard let name = attribute.attribute("Name") else { continue }
                attributes.append(
                    SAMLAttribute(
                        name: name, nameFormat: attribute.attribute("NameFormat"),
                        friendlyName: attribute.attribute("FriendlyName"),
                        values: attribute.children("AttributeValue", in: SAMLNamespace.assertion).map(\.textContent)))
            }
        }
        return attributes
    }
}
