import Foundation
import SSOKitOIDC
import SSOKitTokenCache

/// What the adapter keeps for one OIDC payload: its configuration and one relying party (whose discovery document
/// and key set are cached for every request).
final class OIDCProvider: Sendable {
    let payload: SSOPayload
    let configuration: OIDCProviderConfiguration
    private let party: OpenIDRelyingParty?
    /// The native answers prepared for each app's current tokens.
    let answers = PreparedTokenAnswers()
    /// The refresh policy for this provider's cache entries (``OpenIDRelyingParty/refreshedEntry(_:)``), made once.
    let refresh: TokenCache.Refresh?

    init(payload: SSOPayload, configuration: OIDCProviderConfiguration, environment: ExtensionEnvironment) {
        self.payload = payload
        self.configuration = configuration
        let party = configuration.relyingParty(
            transport: environment.transport, clock: environment.clock,
            signer: environment.clientAssertionSigners[payload.identifier])
        self.party = party
        if let party {
            refresh = { @Sendable current in try await party.refreshedEntry(current) }
        } else {
            refresh = nil
        }
    }

    /// The IdP's name in cache keys: the issuer.
    var identity: String { configuration.issuer }

    /// The IdP session's name: the issuer's origin (``IdPSessionName``).
    var sessionName: String { IdPSessionName.origin(of: configuration.issuer) ?? identity }

    /// The app's entry: (app, issuer, client, the payload's scopes).
    func key(for application: String) -> TokenCacheKey {
        TokenCacheKey(
            application: application, issuer: configuration.issuer, clientID: configuration.clientID,
            scopes: configuration.scopes)
    }

    /// The relying party; `configuration_incomplete` for `private_key_jwt` without a signer.
    func relyingParty() throws(AuthorizationFailure) -> OpenIDRelyingParty {
        guard let party else {
            throw AuthorizationFailure(
                .failed, .configurationIncomplete, "private_key_jwt needs a client assertion signer for this payload")
        }
        return party
    }

    /// The IdP's origins: the issuer's, the authorization endpoint's and the payload's URL prefixes'.
    func origins() async throws -> IdPOrigins {
        let metadata = try await relyingParty().metadata()
        var origins = IdPOrigins(payload.urls.compactMap { URL(string: $0.url) })
        origins.insert(metadata.authorizationEndpoint)
        if let issuer = URL(string: configuration.issuer) { origins.insert(issuer) }
        return origins
    }
}
