import Foundation
import SSOKitSAML

/// The SAML IdP a service signs its users in with, as the service provider `serviceProviderEntityID` whose ACS URL
/// is the configuration's base URL plus ``RelyingPartyPaths/samlAssertionConsumerService``.
public struct SAMLSignIn: Sendable {
    /// The SP's entity ID: the AuthnRequest's Issuer and the audience the assertion must name.
    public var serviceProviderEntityID: String
    /// The IdP's entity ID, which the Response's Issuer must equal.
    public var identityProviderEntityID: String
    /// The IdP's HTTP-Redirect SSO URL.
    public var singleSignOnURL: String
    /// The IdP's pinned signing certificates.
    public var identityProviderCertificates: [SAMLCertificate]
    /// Remembers assertion IDs so that none is accepted twice; share one between instances of the service
    /// (SSOKitTokenCache's guards) when they share a persist driver.
    public var replayGuard: any SAMLAssertionReplayGuard
    /// The SP key that decrypts EncryptedAssertions, if the IdP encrypts.
    public var decryptionKey: SAMLPrivateKey?
    /// The SP key that signs AuthnRequests, if the IdP wants them signed.
    public var requestSigningKey: SAMLPrivateKey?

    /// Signs users in at the IdP described by the given values.
    public init(
        serviceProviderEntityID: String, identityProviderEntityID: String, singleSignOnURL: String,
        identityProviderCertificates: [SAMLCertificate],
        replayGuard: any SAMLAssertionReplayGuard = InMemoryAssertionReplayGuard(),
        decryptionKey: SAMLPrivateKey? = nil, requestSigningKey: SAMLPrivateKey? = nil
    ) {
        self.serviceProviderEntityID = serviceProviderEntityID
        self.identityProviderEntityID = identityProviderEntityID
        self.singleSignOnURL = singleSignOnURL
        self.identityProviderCertificates = identityProviderCertificates
        self.replayGuard = replayGuard
        self.decryptionKey = decryptionKey
        self.requestSigningKey = requestSigningKey
    }

    /// Signs users in at the IdP that `metadata` describes (its entity ID, HTTP-Redirect SSO URL and signing
    /// certificates); `nil` when the metadata offers no HTTP-Redirect SSO service or no signing certificate.
    public init?(
        metadata: IdentityProviderMetadata, serviceProviderEntityID: String,
        replayGuard: any SAMLAssertionReplayGuard = InMemoryAssertionReplayGuard()
    ) {
        guard let url = metadata.singleSignOnURL(binding: AuthnRequest.Binding.redirect),
            !metadata.signingCertificates.isEmpty
        else { return nil }
        self.init(
            serviceProviderEntityID: serviceProviderEntityID, identityProviderEntityID: metadata.entityID,
            singleSignOnURL: url, identityProviderCertificates: metadata.signingCertificates,
            replayGuard: replayGuard)
    }
}
