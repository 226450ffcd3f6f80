import Foundation
import SSOKitCore

/// Builds AuthnRequests for one service provider: a fresh unguessable ID and the current instant on each call.
public struct AuthnRequestBuilder: Sendable {
    /// The SP's entity ID (the request's Issuer).
    public var serviceProviderEntityID: String
    /// The ACS URL the IdP posts the Response to.
    public var assertionConsumerServiceURL: String
    /// The NameIDPolicy sent with every request.
    public var nameIDPolicy: AuthnRequest.NameIDPolicy?
    /// The requested authentication context, if any.
    public var requestedAuthnContext: AuthnRequest.RequestedAuthnContext?
    private let clock: any SSOKitClock

    /// Creates a builder; the ACS URL must be absolute http(s).
    public init(
        serviceProviderEntityID: String, assertionConsumerServiceURL: String,
        nameIDPolicy: AuthnRequest.NameIDPolicy? = AuthnRequest.NameIDPolicy(),
        requestedAuthnContext: AuthnRequest.RequestedAuthnContext? = nil, clock: any SSOKitClock = SystemClock()
    ) throws(SAMLError) {
        try SAMLURL.requireHTTP(assertionConsumerServiceURL, role: "ACS URL")
        self.serviceProviderEntityID = serviceProviderEntityID
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.nameIDPolicy = nameIDPolicy
        self.requestedAuthnContext = requestedAuthnContext
        self.clock = clock
    }

    /// A request to `destination` (the IdP's SSO URL).
    public func build(destination: String, forceAuthn: Bool = false, isPassive: Bool = false) throws(SAMLError)
        -> AuthnRequest
    {
        try SAMLURL.requireHTTP(destination, role: "IdP SSO URL")
        return AuthnRequest(
            id: Self.newID(), issueInstant: clock.now, destination: destination,
            assertionConsumerServiceURL: assertionConsumerServiceURL, issuer: serviceProviderEntityID,
            nameIDPolicy: nameIDPolicy, forceAuthn: forceAuthn, isPassive: isPassive,
            requestedAuthnContext: requestedAuthnContext)
    }

    /// `_` followed by 160 random bits in hex: a valid NCName that cannot be guessed.
    public static func newID() -> String {
        SecureRandom.bytes(20).reduce(into: "_") { text, byte in
            text += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }
    }
}
