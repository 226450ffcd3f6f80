import SSOKitCore

/// Every rejection from SSOKitSAML: a stable code, a reason that never holds an assertion, key or secret, and for
/// a non-success status the status codes the IdP sent.
///
/// Codes are extensible: new ones may be added in minor releases, so switch over them with a `default`.
/// Two errors are equal when their codes are.
public struct SAMLError: SSOKitError {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The input exceeds a size cap (the document, the inflated redirect message, a form page).
        public static let tooLarge = Code("too_large")
        /// Elements nest deeper than the configured cap.
        public static let nestingTooDeep = Code("nesting_too_deep")
        /// The input is not well-formed XML.
        public static let malformedXML = Code("malformed_xml")
        /// The document has a DOCTYPE (and with it DTDs and entities), which SAML never needs.
        public static let doctypeForbidden = Code("doctype_forbidden")
        /// The base64 (or DEFLATE) encoding of a message is invalid.
        public static let invalidEncoding = Code("invalid_encoding")
        /// The document is not the expected SAML message, or lacks a required element or attribute.
        public static let invalidMessage = Code("invalid_message")
        /// The Response carries no assertion.
        public static let missingAssertion = Code("missing_assertion")
        /// A signature does not verify with any pinned IdP key (including a digest mismatch).
        public static let invalidSignature = Code("invalid_signature")
        /// The signature policy demands a signature that is absent.
        public static let signatureMissing = Code("signature_missing")
        /// A Signature element is malformed: several SignedInfo or Reference elements, comments or processing
        /// instructions inside it, or several Signature elements on one element.
        public static let malformedSignature = Code("malformed_signature")
        /// The signed reference does not point at the element whose data would be returned, IDs repeat, or the
        /// document holds more than one assertion: an XML signature wrapping attempt.
        public static let signatureWrapping = Code("signature_wrapping")
        /// A signature, digest, transform or encryption algorithm outside the allowed set (SHA-1 by default, HMAC,
        /// unknown transforms, RSA PKCS#1 v1.5 key transport).
        public static let unsupportedAlgorithm = Code("unsupported_algorithm")
        /// The Response's status is not Success; ``SAMLError/statusCodes`` holds what the IdP sent.
        public static let statusNotSuccess = Code("status_not_success")
        /// The Issuer differs from the IdP's entity ID.
        public static let issuerMismatch = Code("issuer_mismatch")
        /// The Response's Destination differs from the ACS URL.
        public static let destinationMismatch = Code("destination_mismatch")
        /// The bearer SubjectConfirmationData's Recipient differs from the ACS URL.
        public static let recipientMismatch = Code("recipient_mismatch")
        /// The AudienceRestriction does not contain the SP's entity ID.
        public static let audienceMismatch = Code("audience_mismatch")
        /// InResponseTo differs from the request ID, or is present on a response accepted as unsolicited.
        public static let inResponseToMismatch = Code("in_response_to_mismatch")
        /// No request ID was given and unsolicited responses are not allowed.
        public static let unsolicitedResponse = Code("unsolicited_response")
        /// No bearer SubjectConfirmation is present.
        public static let subjectConfirmationMissing = Code("subject_confirmation_missing")
        /// NotOnOrAfter (Conditions or SubjectConfirmationData) has passed, beyond the clock skew.
        public static let expired = Code("expired")
        /// NotBefore is in the future, beyond the clock skew.
        public static let notYetValid = Code("not_yet_valid")
        /// An EncryptedAssertion could not be decrypted with the SP key (or no SP key is configured). Every failure
        /// from key transport to the decrypted assertion's own signature (when no Response signature authenticates
        /// the ciphertext) has this code and one reason, so that the answer is no decryption oracle.
        public static let decryptionFailed = Code("decryption_failed")
        /// An EncryptedAssertion points at its ciphertext with a CipherReference (a URL, a file, or another part of
        /// the document) instead of carrying it inline: SSOKit reads only CipherValue and never opens a URI.
        public static let cipherReferenceForbidden = Code("cipher_reference_forbidden")
        /// The assertion ID was seen before (replay).
        public static let replayDetected = Code("replay_detected")
        /// RelayState is longer than 80 bytes (SAML Bindings §3.4.3, §3.5.3).
        public static let relayStateTooLong = Code("relay_state_too_long")
        /// A URL is not absolute http(s) (an auto-post action, an ACS or SSO URL).
        public static let invalidURL = Code("invalid_url")
        /// IdP metadata is malformed or lacks what SSOKit needs.
        public static let invalidMetadata = Code("invalid_metadata")
        /// A key or certificate could not be loaded.
        public static let invalidKey = Code("invalid_key")
        /// No auto-post form with a SAML message was found in an HTML page.
        public static let formNotFound = Code("form_not_found")
        /// Signing a message failed.
        public static let signingFailed = Code("signing_failed")

        /// The stable snake_case name, e.g. `signature_wrapping`.
        public var description: String { name }

        /// Every code, for documentation and exhaustive tests.
        public static let all: [Code] = [
            .tooLarge, .nestingTooDeep, .malformedXML, .doctypeForbidden, .invalidEncoding, .invalidMessage,
            .missingAssertion, .invalidSignature, .signatureMissing, .malformedSignature, .signatureWrapping,
            .unsupportedAlgorithm, .statusNotSuccess, .issuerMismatch, .destinationMismatch, .recipientMismatch,
            .audienceMismatch, .inResponseToMismatch, .unsolicitedResponse, .subjectConfirmationMissing, .expired,
            .notYetValid, .decryptionFailed, .cipherReferenceForbidden, .replayDetected, .relayStateTooLong,
            .invalidURL, .invalidMetadata,
            .invalidKey, .formNotFound, .signingFailed,
        ]
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation, safe to log.
    public var reason: String
    /// For ``Code/statusNotSuccess``: the top-level status code URI, then any nested ones.
    public var statusCodes: [String]
    /// The named rule that refused the message: a ``SAMLResponseCheck/name`` for a Response's checks, `encoding`
    /// for a posted value that is not base64, `replay` for the replay guard; `nil` outside Response verification.
    /// It never changes the ``code``, and takes no part in equality.
    public var rule: String?

    /// Creates an error.
    public init(_ code: Code, _ reason: String, statusCodes: [String] = []) {
        self.code = code
        self.reason = reason
        self.statusCodes = statusCodes
        self.rule = nil
    }
}
