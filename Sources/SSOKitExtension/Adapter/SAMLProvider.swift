import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitSAML
import SSOKitTokenCache

/// What the adapter keeps for one SAML payload: its configuration, the IdP metadata (from the profile, or fetched
/// once from `idp_metadata_url` and verified with the pinned certificate) and a response verifier.
final class SAMLProvider: Sendable {
    let payload: SSOPayload
    let configuration: SAMLProviderConfiguration
    private let fetched: FetchedMetadata?

    init(payload: SSOPayload, configuration: SAMLProviderConfiguration, environment: ExtensionEnvironment) {
        self.payload = payload
        self.configuration = configuration
        fetched =
            configuration.metadata == nil
            ? configuration.metadataURL.flatMap { URL(string: $0) }.map {
                FetchedMetadata(
                    url: $0, signers: configuration.pinnedCertificates,
                    entityID: configuration.identityProviderEntityID, transport: environment.transport,
                    clock: environment.clock)
            } : nil
    }

    /// The IdP's name in cache keys: its entity ID, else the payload's.
    var identity: String { configuration.identityProviderEntityID ?? "saml:" + payload.identifier }

    /// The IdP session's name: the origin of the payload's first URL (the IdP's SSO service, ``IdPSessionName``).
    var sessionName: String { payload.urls.lazy.compactMap { IdPSessionName.origin(of: $0.url) }.first ?? identity }

    /// The app's SAML session entry: (app, IdP, SP entity ID).
    func key(for application: String) -> TokenCacheKey {
        TokenCacheKey(application: application, issuer: identity, clientID: configuration.serviceProviderEntityID)
    }

    /// The IdP's metadata, when the profile gives or names it.
    func metadata() async throws -> IdentityProviderMetadata? {
        if let metadata = configuration.metadata { return metadata }
        return try await fetched?.metadata()
    }

    /// The IdP's origins: the payload's URL prefixes and the metadata's SSO endpoints.
    func origins() async throws -> IdPOrigins {
        var origins = IdPOrigins(payload.urls.compactMap { URL(string: $0.url) })
        for endpoint in try await metadata()?.singleSignOnServices ?? [] {
            if let url = URL(string: endpoint.location) { origins.insert(url) }
        }
        return origins
    }

    /// A verifier for Responses to this SP, recording assertion IDs in the token cache's store.
    func verifier(cache: TokenCache, clock: any SSOKitClock) -> SAMLResponseVerifier {
        SAMLResponseVerifier(
            configuration: configuration.verifierConfiguration, clock: clock,
            replayGuard: TokenCacheReplayGuard(cache: cache))
    }
}

/// IdP metadata fetched from a URL once and kept; it must be signed by a pinned certificate.
actor FetchedMetadata {
    private let url: URL
    private let signers: [SAMLCertificate]
    private let entityID: String?
    private let transport: any HTTPTransport
    private let clock: any SSOKitClock
    private var cached: IdentityProviderMetadata?

    init(
        url: URL, signers: [SAMLCertificate], entityID: String?, transport: any HTTPTransport, clock: any SSOKitClock
    ) {
        self.url = url
        self.signers = signers
        self.entityID = entityID
        self.transport = transport
        self.clock = clock
    }

    func metadata() async throws -> IdentityProviderMetadata {
        if let cached { return cached }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme,
            let host = components.host, EndpointSecurity.isAllowed(url)
        else { throw AuthorizationFailure(.failed, .configurationIncomplete, "idp_metadata_url is not usable") }
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        let request = HTTPRequest(
            method: .get, scheme: scheme, authority: components.port.map { "\(host):\($0)" } ?? host, path: path)
        let response = try await transport.send(request, body: nil)
        guard response.response.status.code == 200 else {
            throw AuthorizationFailure(
                .failed, .idpError, "the IdP metadata answered HTTP \(response.response.status.code)")
        }
        var lastError: (any Error)?
        for signer in signers {
            do {
                let metadata = try IdentityProviderMetadata.parse(
                    response.body, entityID: entityID, pinnedSigner: signer, now: clock.now)
                cached = metadata
                return metadata
            } catch {
                lastError = error
            }
        }
        throw lastError ?? AuthorizationFailure(.failed, .configurationIncomplete, "no certificate pins the metadata")
    }
}
