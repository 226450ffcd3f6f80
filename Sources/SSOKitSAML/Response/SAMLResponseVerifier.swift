import Foundation
import SSOKitCore

/// Verifies a SAML 2.0 Response posted to the ACS (Web Browser SSO profile, SAML Profiles §4.1) and returns the
/// one assertion that a valid signature covers.
///
/// Every check of ``SAMLResponseCheck/standard`` runs on every call, in its stated order: size and DOCTYPE
/// refusal, signature verification with the pinned IdP certificates only (never a key from `KeyInfo`), the wrapping
/// defences (the signed reference must be the element whose data is returned; IDs unique; exactly one assertion, a
/// direct child of the Response), Status, Destination, Issuer, InResponseTo, the bearer SubjectConfirmation,
/// Conditions, AudienceRestriction and the AuthnStatement. A rejection names the check that refused it in
/// ``SAMLError/rule`` (`encoding` for a posted value that is not base64, `replay` for the replay guard). The verifier
/// is immutable and safe to share between tasks.
public struct SAMLResponseVerifier: Sendable {
    /// What the service provider expects.
    public struct Configuration: Sendable {
        /// The SP's entity ID, which the AudienceRestriction must contain.
        public var serviceProviderEntityID: String
        /// The ACS URL: Destination and the bearer Recipient must equal it.
        public var assertionConsumerServiceURL: String
        /// The IdP's entity ID that every Issuer must equal (an empty one matches nothing).
        public var identityProviderEntityID: String
        /// The pinned IdP signing certificates (several during a key rollover).
        public var identityProviderCertificates: [SAMLCertificate]
        /// Which signatures must be present (default: the assertion must be covered).
        public var signaturePolicy: SAMLSignaturePolicy
        /// Whether RSA-SHA1 / ECDSA-SHA1 signatures and SHA-1 digests are accepted (default false). SHA-1 is broken
        /// for collisions: turn this on only for an IdP that can sign nothing else.
        public var insecureAllowSHA1: Bool
        /// Skips the Issuer comparison (default false): any IdP whose signing certificate is pinned may then answer
        /// under any entity ID. Only for an IdP whose entity ID is not known; ``identityProviderEntityID`` is then
        /// ignored.
        public var insecureSkipIssuerCheck: Bool
        /// Tolerated clock difference for every time check (default 60 s).
        public var clockSkew: TimeInterval
        /// Size and nesting caps.
        public var limits: XMLLimits
        /// The SP key that decrypts EncryptedAssertions.
        public var decryptionKey: SAMLPrivateKey?

        /// Creates a configuration with the safe defaults.
        public init(
            serviceProviderEntityID: String, assertionConsumerServiceURL: String, identityProviderEntityID: String,
            identityProviderCertificates: [SAMLCertificate], signaturePolicy: SAMLSignaturePolicy = .assertionCovered,
            insecureAllowSHA1: Bool = false, insecureSkipIssuerCheck: Bool = false, clockSkew: TimeInterval = 60,
            limits: XMLLimits = XMLLimits(), decryptionKey: SAMLPrivateKey? = nil
        ) {
            self.serviceProviderEntityID = serviceProviderEntityID
            self.assertionConsumerServiceURL = assertionConsumerServiceURL
            self.identityProviderEntityID = identityProviderEntityID
            self.identityProviderCertificates = identityProviderCertificates
            self.signaturePolicy = signaturePolicy
            self.insecureAllowSHA1 = insecureAllowSHA1
            self.insecureSkipIssuerCheck = insecureSkipIssuerCheck
            self.clockSkew = clockSkew
            self.limits = limits
            self.decryptionKey = decryptionKey
        }
    }

    /// Which request the Response answers.
    public enum Solicitation: Sendable, Hashable {
        /// The Response must answer the AuthnRequest with this ID.
        case request(id: String)
        /// IdP-initiated: no InResponseTo may be present. Only accept this where the deployment allows it.
        case unsolicited
    }

    /// The configuration.
    public let configuration: Configuration
    private let clock: any SSOKitClock
    private let replayGuard: (any SAMLAssertionReplayGuard)?

    /// Creates a verifier. With a `replayGuard`, ``verify(postedResponse:solicitation:)`` refuses an assertion ID
    /// seen before.
    public init(
        configuration: Configuration, clock: any SSOKitClock = SystemClock(),
        replayGuard: (any SAMLAssertionReplayGuard)? = nil
    ) {
        self.configuration = configuration
        self.clock = clock
        self.replayGuard = replayGuard
    }

    /// Verifies the `SAMLResponse` form value as posted (base64; line breaks and spaces tolerated), then records
    /// the assertion ID with the replay guard.
    public func verify(postedResponse: String, solicitation: Solicitation) async throws(SAMLError) -> SAMLAssertion {
        let assertion = try validate(postedResponse: postedResponse, solicitation: solicitation)
        try await recordUse(of: assertion)
        return assertion
    }

    /// Verifies a Response given as XML bytes, then records the assertion ID with the replay guard.
    public func verify(xml: [UInt8], solicitation: Solicitation) async throws(SAMLError) -> SAMLAssertion {
        let assertion = try validate(xml: xml, solicitation: solicitation)
        try await recordUse(of: assertion)
        return assertion
    }

    /// Every check except the replay guard, synchronously, for a base64 form value. Not public: outside SSOKit, a
    /// Response is accepted through ``verify(postedResponse:solicitation:)``, which never forgets the replay guard.
    package func validate(postedResponse: String, solicitation: Solicitation) throws(SAMLError) -> SAMLAssertion {
        let xml: [UInt8]
        do throws(SAMLError) {
            xml = try SAMLBase64.decode(postedResponse, limit: configuration.limits.maximumDocumentBytes)
        } catch {
            throw error.naming(rule: "encoding")
        }
        return try validate(xml: xml, solicitation: solicitation)
    }

    /// Every check except the replay guard, synchronously, for XML bytes (tests, fuzzing and benchmarks).
    package func validate(xml: [UInt8], solicitation: Solicitation) throws(SAMLError) -> SAMLAssertion {
        var validation = ResponseValidation(
            configuration: configuration, now: clock.now, solicitation: solicitation, xml: xml)
        return try validation.run(SAMLResponseCheck.standard)
    }

    private func recordUse(of assertion: SAMLAssertion) async throws(SAMLError) {
        guard let replayGuard else { return }
        let expiry = assertion.notOnOrAfter ?? clock.now.addingTimeInterval(3600)
        let firstUse: Bool
        do {
            firstUse = try await replayGuard.recordFirstUse(
                assertionID: assertion.assertionID, issuer: assertion.issuer,
                expiry: expiry.addingTimeInterval(configuration.clockSkew))
        } catch let error as SAMLError {
            throw error.naming(rule: "replay")
        } catch {
            throw SAMLError(.replayDetected, "the replay guard failed, so the assertion is not accepted")
                .naming(rule: "replay")
        }
        guard firstUse else {
            throw SAMLError(.replayDetected, "the assertion ID was already used").naming(rule: "replay")
        }
    }
}
