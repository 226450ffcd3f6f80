import SSOKitCore
import SSOKitSAML

/// A SAML 2.0 IdP and this service provider from ExtensionData (`protocol` `saml`): `idp_metadata_file` or
/// `idp_metadata_url`, `idp_certificate`, `idp_entity_id`, `sp_entity_id`, `acs_url`, `sp_key_file`, `sp_cert_file`,
/// `verify_response`.
public struct SAMLProviderConfiguration: Sendable {
    /// The IdP metadata read from `idp_metadata_file`.
    public var metadata: IdentityProviderMetadata?
    /// Where to fetch the IdP metadata (`idp_metadata_url`); what is fetched must be signed by a
    /// ``pinnedCertificates`` certificate.
    public var metadataURL: String?
    /// The IdP signing certificates pinned by `idp_certificate` (several during a rollover).
    public var pinnedCertificates: [SAMLCertificate]
    /// `idp_entity_id`, else the metadata's entity ID; nil when neither is known, and then the verifier is told, in
    /// so many words, to skip the Issuer comparison (`insecureSkipIssuerCheck`).
    public var identityProviderEntityID: String?
    /// The SP entity ID (`sp_entity_id`).
    public var serviceProviderEntityID: String
    /// The ACS URL (`acs_url`).
    public var assertionConsumerServiceURL: String
    /// The SP key that signs AuthnRequests and decrypts assertions (`sp_key_file`, with `sp_cert_file`).
    public var serviceProviderKey: SAMLPrivateKey?
    /// Whether an intercepted browser login's Response is verified before it is passed on (`verify_response`,
    /// default false: the web app's own SP verifies it).
    public var verifyResponse: Bool

    /// Creates a configuration.
    public init(
        metadata: IdentityProviderMetadata? = nil, metadataURL: String? = nil,
        pinnedCertificates: [SAMLCertificate] = [],
        identityProviderEntityID: String? = nil, serviceProviderEntityID: String, assertionConsumerServiceURL: String,
        serviceProviderKey: SAMLPrivateKey? = nil, verifyResponse: Bool = false
    ) {
        self.metadata = metadata
        self.metadataURL = metadataURL
        self.pinnedCertificates = pinnedCertificates
        self.identityProviderEntityID = identityProviderEntityID ?? metadata?.entityID
        self.serviceProviderEntityID = serviceProviderEntityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.serviceProviderKey = serviceProviderKey
        self.verifyResponse = verifyResponse
    }

    /// The certificates a Response signature must verify with: the pinned ones when given, else the metadata's.
    public var responseSigningCertificates: [SAMLCertificate] {
        pinnedCertificates.isEmpty ? metadata?.signingCertificates ?? [] : pinnedCertificates
    }

    /// What `SAMLResponseVerifier` expects for this SP and IdP, with the safe defaults.
    public var verifierConfiguration: SAMLResponseVerifier.Configuration {
        SAMLResponseVerifier.Configuration(
            serviceProviderEntityID: serviceProviderEntityID, assertionConsumerServiceURL: assertionConsumerServiceURL,
            identityProviderEntityID: identityProviderEntityID ?? "",
            identityProviderCertificates: responseSigningCertificates,
            insecureSkipIssuerCheck: identityProviderEntityID == nil, decryptionKey: serviceProviderKey)
    }

    /// An AuthnRequest builder for this SP.
    public func authnRequestBuilder(clock: any SSOKitClock = SystemClock()) throws(SAMLError) -> AuthnRequestBuilder {
        try AuthnRequestBuilder(
            serviceProviderEntityID: serviceProviderEntityID, assertionConsumerServiceURL: assertionConsumerServiceURL,
            clock: clock)
    }
}
