import SSOKitCore

extension SAMLResponseCheck {
    /// Every check, in the order ``SAMLResponseVerifier`` runs them: first the document and the signatures (so
    /// that nothing unsigned is read), then the Response's own fields, then the assertion's.
    ///
    /// 1. ``document``, 2. ``response``, 3. ``singleAssertion``, 4. ``responseSignature``, 5. ``status``,
    /// 6. ``assertionPresent``, 7. ``assertionSignature``, 8. ``signaturePolicy``, 9. ``destination``,
    /// 10. ``responseIssuer``, 11. ``responseInResponseTo``, 12. ``assertion``, 13. ``assertionIssuer``,
    /// 14. ``subject``, 15. ``bearerConfirmation``, 16. ``conditions``, 17. ``audience``, 18. ``authnStatement``.
    public static let standard: [SAMLResponseCheck] = [
        .document, .response, .singleAssertion, .responseSignature, .status, .assertionPresent, .assertionSignature,
        .signaturePolicy, .destination, .responseIssuer, .responseInResponseTo, .assertion, .assertionIssuer,
        .subject, .bearerConfirmation, .conditions, .audience, .authnStatement,
    ]

    /// The bytes are well-formed XML within the size and depth limits, with no DOCTYPE.
    public static let document = SAMLResponseCheck(name: "document") { validation throws(SAMLError) in
        try validation.parseDocument()
    }

    /// The root is a `samlp:Response` with an ID, Version 2.0 and a valid IssueInstant (Core §3.2.2).
    public static let response = SAMLResponseCheck(name: "response") { validation throws(SAMLError) in
        try validation.readResponse()
    }

    /// At most one assertion (plain or encrypted), and only as a direct child of the Response: the signature
    /// wrapping defence.
    public static let singleAssertion = SAMLResponseCheck(name: "single_assertion") { validation throws(SAMLError) in
        try validation.locateAssertion()
    }

    /// The Response's enveloped signature, when present, verifies with a pinned certificate.
    public static let responseSignature = SAMLResponseCheck(name: "response_signature") {
        validation throws(SAMLError) in
        try validation.verifyResponseSignature()
    }

    /// The top-level StatusCode is Success (Core §3.2.2.2).
    public static let status = SAMLResponseCheck(name: "status") { validation throws(SAMLError) in
        try validation.checkStatus()
    }

    /// The Response carries an assertion.
    public static let assertionPresent = SAMLResponseCheck(name: "assertion_present") {
        validation throws(SAMLError) in
        guard validation.carried != nil else {
            throw SAMLError(.missingAssertion, "the Response carries no assertion")
        }
    }

    /// The assertion is decrypted when it came encrypted, and its own signature, when present, verifies.
    public static let assertionSignature = SAMLResponseCheck(name: "assertion_signature") {
        validation throws(SAMLError) in
        try validation.verifyAssertionSignature()
    }

    /// The signatures present satisfy the configured ``SAMLSignaturePolicy``.
    public static let signaturePolicy = SAMLResponseCheck(name: "signature_policy") { validation throws(SAMLError) in
        try validation.checkPolicy()
    }

    /// Destination, when present, is this ACS; a signed Response must carry it (Bindings §3.5.5.2).
    public static let destination = SAMLResponseCheck(name: "destination") { validation throws(SAMLError) in
        try validation.checkDestination()
    }

    /// The Response's Issuer, when present, is the configured IdP (Profiles §4.1.4.2).
    public static let responseIssuer = SAMLResponseCheck(name: "response_issuer") { validation throws(SAMLError) in
        try validation.checkResponseIssuer()
    }

    /// InResponseTo answers the request, or is absent for an unsolicited Response.
    public static let responseInResponseTo = SAMLResponseCheck(name: "response_in_response_to") {
        validation throws(SAMLError) in
        try validation.checkInResponseTo(validation.requiredResponse().attribute("InResponseTo"), of: "Response")
    }

    /// The assertion has an ID, Version 2.0, a valid IssueInstant and an Issuer (Core §2.3.3).
    public static let assertion = SAMLResponseCheck(name: "assertion") { validation throws(SAMLError) in
        try validation.readAssertion()
    }

    /// The assertion's Issuer is the configured IdP (Profiles §4.1.4.2).
    public static let assertionIssuer = SAMLResponseCheck(name: "assertion_issuer") { validation throws(SAMLError) in
        try validation.checkIssuer(validation.issuer, of: "Assertion")
    }

    /// The assertion has a Subject with a plain NameID.
    public static let subject = SAMLResponseCheck(name: "subject") { validation throws(SAMLError) in
        try validation.readSubject()
    }

    /// One bearer SubjectConfirmation passes every rule: this ACS as Recipient, a time window that holds now, and
    /// the request's InResponseTo (Profiles §4.1.4.2).
    public static let bearerConfirmation = SAMLResponseCheck(name: "bearer_confirmation") {
        validation throws(SAMLError) in
        try validation.checkBearerConfirmation()
    }

    /// The Conditions' NotBefore and NotOnOrAfter, when present, hold now, within the clock skew (Core §2.5.1.2).
    public static let conditions = SAMLResponseCheck(name: "conditions") { validation throws(SAMLError) in
        try validation.checkConditionsWindow()
    }

    /// At least one AudienceRestriction, and each names this SP (Core §2.5.1.4).
    public static let audience = SAMLResponseCheck(name: "audience") { validation throws(SAMLError) in
        try validation.checkAudience()
    }

    /// An AuthnStatement is present, its SessionNotOnOrAfter has not passed and its AuthnInstant is valid.
    public static let authnStatement = SAMLResponseCheck(name: "authn_statement") { validation throws(SAMLError) in
        try validation.readAuthnStatement()
    }
}
