import SSOKitSAML

/// A SAML 2.0 service provider registered with the development IdP (what its SP metadata would say).
public struct SAMLServiceProviderRegistration: Sendable {
    /// The SP's entity ID: the Issuer of its requests and the Audience of the assertions it gets.
    public var entityID: String
    /// Its AssertionConsumerService URLs (HTTP-POST), the first being the default. Matched exactly, except that an
    /// `http` URL on 127.0.0.1 or [::1] registered without a port matches any port, as redirect URIs do.
    public var assertionConsumerServiceURLs: [String]
    /// Where a LogoutResponse goes (HTTP-Redirect), if the SP does single logout.
    public var singleLogoutServiceURL: String?
    /// The certificates whose keys sign the SP's AuthnRequests and LogoutRequests.
    public var signingCertificates: [SAMLCertificate]
    /// Whether unsigned requests are refused (`AuthnRequestsSigned` in the SP's metadata).
    public var requireSignedRequests: Bool
    /// When set, assertions are encrypted to this certificate (AES-256-GCM content, RSA-OAEP key transport).
    public var encryptionCertificate: SAMLCertificate?
    /// Whether the Assertion carries its own signature (default true).
    public var signAssertion: Bool
    /// Whether the Response carries a signature (default true).
    public var signResponse: Bool

    /// Creates a registration; signed requests are required whenever signing certificates are given, unless
    /// `requireSignedRequests` says otherwise.
    public init(
        entityID: String, assertionConsumerServiceURLs: [String], singleLogoutServiceURL: String? = nil,
        signingCertificates: [SAMLCertificate] = [], requireSignedRequests: Bool? = nil,
        encryptionCertificate: SAMLCertificate? = nil, signAssertion: Bool = true, signResponse: Bool = true
    ) {
        self.entityID = entityID
        self.assertionConsumerServiceURLs = assertionConsumerServiceURLs
        self.singleLogoutServiceURL = singleLogoutServiceURL
        self.signingCertificates = signingCertificates
        self.requireSignedRequests = requireSignedRequests ?? !signingCertificates.isEmpty
        self.encryptionCertificate = encryptionCertificate
        self.signAssertion = signAssertion
        self.signResponse = signResponse
    }
}
