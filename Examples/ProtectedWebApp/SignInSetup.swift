import Foundation
import HTTPTypes
import Hummingbird
import SSOKitCore
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitSAML

/// The example's sign-in configuration from its command line: the OpenID Provider found by discovery, the SAML IdP
/// read from its metadata.
struct SignInSetup {
    let baseURL: String
    let oidcIssuer: String?
    let oidcClientID: String?
    let samlMetadataURL: String?
    let samlSPEntityID: String?

    /// The largest metadata document read.
    static let maximumMetadataBytes = 1 << 20

    func routes(storage: any PersistDriver, transport: any HTTPTransport) async throws -> RelyingPartyRoutes {
        var configuration = RelyingPartyConfiguration(
            baseURL: baseURL,
            paths: RelyingPartyPaths(openIDConnectCallback: "/callback", samlAssertionConsumerService: "/saml/acs"))
        if let oidcIssuer, let oidcClientID {
            let relyingParty = OpenIDRelyingParty(
                issuer: oidcIssuer, clientID: oidcClientID, authentication: .none, transport: transport)
            _ = try await relyingParty.metadata()
            configuration.openIDConnect = OpenIDConnectSignIn(relyingParty: relyingParty)
        }
        if let samlMetadataURL, let samlSPEntityID {
            let metadata = try IdentityProviderMetadata.parse(try await fetch(samlMetadataURL, transport: transport))
            guard let saml = SAMLSignIn(metadata: metadata, serviceProviderEntityID: samlSPEntityID) else {
                throw SetupError("the IdP's metadata has no HTTP-Redirect SSO service or no signing certificate")
            }
            configuration.saml = saml
        }
        return try RelyingPartyRoutes(configuration: configuration, storage: storage)
    }

    /// GETs `url` (https, or http on loopback).
    private func fetch(_ url: String, transport: any HTTPTransport) async throws -> [UInt8] {
        guard let target = URL(string: url), EndpointSecurity.isAllowed(target) else {
            throw SetupError("the metadata URL must be https, or http on a loopback address")
        }
        let answer = try await transport.send(HTTPRequest(method: .get, url: target), body: nil)
        guard answer.response.status == .ok else {
            throw SetupError("the metadata URL answered \(answer.response.status)")
        }
        guard answer.body.count <= Self.maximumMetadataBytes else { throw SetupError("the metadata is over 1 MiB") }
        return answer.body
    }
}

struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
