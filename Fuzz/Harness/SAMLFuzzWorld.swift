import Foundation
import SSOKitCore
import SSOKitSAML

/// The service provider the SAML fixtures describe (fixtures/saml/README.md, "The world of every case").
enum SAMLFuzzWorld {
    static let serviceProviderEntityID = "https://sp.example.com/saml"
    static let assertionConsumerServiceURL = "https://sp.example.com/saml/acs"
    static let identityProviderEntityID = "https://idp.example.com/saml"
    static let requestID = "_ssokit-req-0001"
    static let clock = FixedClock(FuzzFixtures.now)

    /// The SP's configuration with `certificates` pinned and the SP key (`keys/sp.key`) for EncryptedAssertions.
    static func configuration(pinning certificates: [SAMLCertificate]) throws -> SAMLResponseVerifier.Configuration {
        SAMLResponseVerifier.Configuration(
            serviceProviderEntityID: serviceProviderEntityID,
            assertionConsumerServiceURL: assertionConsumerServiceURL,
            identityProviderEntityID: identityProviderEntityID, identityProviderCertificates: certificates,
            decryptionKey: try SAMLPrivateKey(
                pem: FuzzFixtures.text("saml/keys/sp.key"), certificatePEM: FuzzFixtures.text("saml/keys/sp.crt")))
    }
}
