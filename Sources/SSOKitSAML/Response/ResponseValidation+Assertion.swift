import Foundation
import SSOKitCore

/// The checks on the one assertion the signature checks accepted (Core §2.3–2.7; Profiles §4.1.4.2).
extension ResponseValidation {
    private static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"

    mutating func readAssertion() throws(SAMLError) {
        let assertion = try Self.required(self.assertion)
        guard let id = assertion.attribute("ID"), !id.isEmpty,
            assertion.attribute("Version", equals: "2.0"), try time(assertion, "IssueInstant") != nil,
            let issuerElement = assertion.firstChild("Issuer", in: SAMLNamespace.assertion)
        else { throw SAMLError(.invalidMessage, "the Assertion lacks a valid ID, Version 2.0, IssueInstant or Issuer") }
        assertionID = id
        issuer = issuerElement.textContent
    }

    mutating func readSubject() throws(SAMLError) {
        guard let subject = try Self.required(assertion).firstChild("Subject", in: SAMLNamespace.assertion) else {
            throw SAMLError(.invalidMessage, "the Assertion has no Subject")
        }
        guard let nameIDElement = subject.firstChild("NameID", in: SAMLNamespace.assertion),
            !nameIDElement.hasElementChildren
        else { throw SAMLError(.invalidMessage, "the Subject has no plain NameID") }
        self.subject = subject
        nameID = nameIDElement
    }

    /// At least one bearer SubjectConfirmation must pass every rule (Profiles §4.1.4.2); keeps its NotOnOrAfter.
    ///
    /// For a solicited Response, the confirmation's InResponseTo binds the assertion to the request. It may be absent
    /// only when the Response itself is signed (its InResponseTo, already checked, then binds the assertion):
    /// otherwise an IdP-initiated assertion re-wrapped in a new unsigned Response would pass as an answer.
    mutating func checkBearerConfirmation() throws(SAMLError) {
        let subject = try Self.required(subject)
        var bearers = 0
        var firstFailure: SAMLError?
        var expiry: Date?
        subject.forEachChild("SubjectConfirmation", in: SAMLNamespace.assertion) { confirmation in
            guard expiry == nil, confirmation.attribute("Method", equals: Self.bearer) else { return }
            bearers += 1
            do throws(SAMLError) {
                expiry = try checkBearer(confirmation)
            } catch {
                if firstFailure == nil { firstFailure = error }
            }
        }
        if let expiry {
            confirmationExpiry = expiry
            return
        }
        guard bearers > 0 else {
            throw SAMLError(.subjectConfirmationMissing, "the Subject has no bearer SubjectConfirmation")
        }
        throw firstFailure ?? SAMLError(.subjectConfirmationMissing, "no bearer confirmation is valid")
    }

    /// One bearer confirmation's rules; returns its NotOnOrAfter.
    private func checkBearer(_ bearer: XMLElement) throws(SAMLError) -> Date {
        guard let data = bearer.firstChild("SubjectConfirmationData", in: SAMLNamespace.assertion) else {
            throw SAMLError(.subjectConfirmationMissing, "the bearer confirmation has no data")
        }
        guard data.attribute("Recipient", equals: configuration.assertionConsumerServiceURL) else {
            throw SAMLError(.recipientMismatch, "the bearer confirmation's Recipient is not this ACS URL")
        }
        guard let expiry = try time(data, "NotOnOrAfter") else {
            throw SAMLError(.invalidMessage, "the bearer confirmation has no NotOnOrAfter")
        }
        try checkWindow(notBefore: try time(data, "NotBefore"), notOnOrAfter: expiry, of: "bearer confirmation")
        let inResponseTo = data.attribute("InResponseTo")
        if !(responseSigned && inResponseTo == nil) {
            try checkInResponseTo(inResponseTo, of: "bearer confirmation")
        }
        return expiry
    }

    private func conditionsElement() throws(SAMLError) -> XMLElement? {
        try Self.required(assertion).firstChild("Conditions", in: SAMLNamespace.assertion)
    }

    func checkConditionsWindow() throws(SAMLError) {
        guard let conditions = try conditionsElement() else { return }
        try checkWindow(
            notBefore: try time(conditions, "NotBefore"), notOnOrAfter: try time(conditions, "NotOnOrAfter"),
            of: "assertion")
    }

    /// Every AudienceRestriction must name this SP (Core §2.5.1.4); the profile requires at least one.
    func checkAudience() throws(SAMLError) {
        let restrictions = try conditionsElement()?.children("AudienceRestriction", in: SAMLNamespace.assertion) ?? []
        guard !restrictions.isEmpty else {
            throw SAMLError(.audienceMismatch, "the assertion has no AudienceRestriction")
        }
        let entityID = configuration.serviceProviderEntityID
        for restriction in restrictions {
            var named = false
            restriction.forEachChild("Audience", in: SAMLNamespace.assertion) { audience in
                if !named, audience.textContent(equals: entityID) { named = true }
            }
            guard named else {
                throw SAMLError(.audienceMismatch, "the AudienceRestriction does not name this SP")
            }
        }
    }

    mutating func readAuthnStatement() throws(SAMLError) {
        guard let authn = try Self.required(assertion).firstChild("AuthnStatement", in: SAMLNamespace.assertion)
        else { throw SAMLError(.invalidMessage, "the Assertion has no AuthnStatement") }
        let sessionNotOnOrAfter = try time(authn, "SessionNotOnOrAfter")
        try checkWindow(notBefore: nil, notOnOrAfter: sessionNotOnOrAfter, of: "IdP session")
        authnInstant = try time(authn, "AuthnInstant")
        self.sessionNotOnOrAfter = sessionNotOnOrAfter
        authnStatement = authn
    }

    /// The accepted assertion, read once every check has passed.
    func result() throws(SAMLError) -> SAMLAssertion {
        let assertion = try Self.required(self.assertion)
        let nameID = try Self.required(self.nameID)
        let authn = try Self.required(authnStatement)
        return SAMLAssertion(
            issuer: issuer, nameID: nameID.textContent, nameIDFormat: nameID.attribute("Format"),
            nameIDSPNameQualifier: nameID.attribute("SPNameQualifier"),
            sessionIndex: authn.attribute("SessionIndex"), authnInstant: authnInstant,
            sessionNotOnOrAfter: sessionNotOnOrAfter, assertionID: assertionID, responseID: responseID,
            inResponseTo: try requiredResponse().attribute("InResponseTo"), attributes: attributes(of: assertion),
            notOnOrAfter: try Self.required(confirmationExpiry), responseWasSigned: responseSigned,
            assertionWasSigned: assertionSigned)
    }

    private func attributes(of assertion: XMLElement) -> [SAMLAttribute] {
        var attributes: [SAMLAttribute] = []
        assertion.forEachChild("AttributeStatement", in: SAMLNamespace.assertion) { statement in
            statement.forEachChild("Attribute", in: SAMLNamespace.assertion) { attribute in
                guard let name = attribute.attribute("Name") else { return }
                var values: [String] = []
                attribute.forEachChild("AttributeValue", in: SAMLNamespace.assertion) { values.append($0.textContent) }
                attributes.append(
                    SAMLAttribute(
                        name: name, nameFormat: attribute.attribute("NameFormat"),
                        friendlyName: attribute.attribute("FriendlyName"), values: values))
            }
        }
        return attributes
    }
}
