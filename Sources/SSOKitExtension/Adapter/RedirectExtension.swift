import Foundation
import SSOKitSAML
import SSOKitTokenCache

/// The redirect-extension adapter: what Apple's Extensible Enterprise SSO calls for each request to a managed URL,
/// here as a library. It matches the request to a payload of the loaded profiles, checks the calling app and the
/// screen lock, lets the payload's handler complete the authentication with the IdP (the app's cached tokens, the
/// user's IdP session, or an interaction), and returns one compact result.
///
/// ```swift
/// let adapter = RedirectExtension(catalog: catalog, environment: ExtensionEnvironment(
///     tokenCache: TokenCache(store: try SQLiteTokenCacheStore(path: path), key: key),
///     transport: AsyncHTTPClientTransport()))
/// switch await adapter.authorize(AuthorizationRequest(url: idpURL, callerBundleIdentifier: "com.example.mail",
///                                                     operation: .refresh)) {
/// case .httpResponse(let response): ...            // 200 with the tokens, a 302, an auto-post form
/// case .needsInteraction(let interaction): ...     // ask, then adapter.resume(interaction: interaction.id, with: ...)
/// default: ...
/// }
/// ```
///
/// Requests from many apps run concurrently; each app's tokens are its own (the cache's per-app keys). The adapter
/// holds no request state in memory: pending interactions live in the token cache's store, so another instance
/// sharing that store (PostgreSQL) can resume them.
public final class RedirectExtension: Sendable {
    /// The loaded profiles' payloads and their indexes.
    public let catalog: ProfileCatalog
    let services: AdapterServices
    /// The providers by payload identifier (for resumed interactions) and by payload object (for requests, so a
    /// request's routing hashes no string).
    let oidcProviders: [String: OIDCProvider]
    let samlProviders: [String: SAMLProvider]
    let oidcByPayload: [ObjectIdentifier: OIDCProvider]
    let samlByPayload: [ObjectIdentifier: SAMLProvider]
    /// The IdP URLs (issuers, SAML entity IDs and SSO URLs) that name each payload, for operations sent to the IdP.
    let identityProviderPrefixes: [(prefix: String, payload: SSOPayload)]

    /// An adapter for `catalog`'s payloads over `environment`.
    public init(catalog: ProfileCatalog, environment: ExtensionEnvironment) {
        self.catalog = catalog
        services = AdapterServices(environment: environment)
        var oidc: [String: OIDCProvider] = [:]
        var saml: [String: SAMLProvider] = [:]
        var prefixes: [(String, SSOPayload)] = []
        for payload in catalog.payloads {
            switch payload.configuration.identityProvider {
            case .oidc(let configuration):
                oidc[payload.identifier] = OIDCProvider(
                    payload: payload, configuration: configuration, environment: environment)
                prefixes.append((configuration.issuer, payload))
            case .saml(let configuration):
                saml[payload.identifier] = SAMLProvider(
                    payload: payload, configuration: configuration, environment: environment)
                if let entityID = configuration.identityProviderEntityID { prefixes.append((entityID, payload)) }
                for endpoint in configuration.metadata?.singleSignOnServices ?? [] {
                    prefixes.append((endpoint.location, payload))
                }
            }
        }
        oidcProviders = oidc
        samlProviders = saml
        oidcByPayload = Dictionary(uniqueKeysWithValues: oidc.values.map { (ObjectIdentifier($0.payload), $0) })
        samlByPayload = Dictionary(uniqueKeysWithValues: saml.values.map { (ObjectIdentifier($0.payload), $0) })
        identityProviderPrefixes = prefixes.map { (Self.trimmingSlashes($0.0), $0.1) }
    }

    /// Whether a request to `url` would be handled (`canPerformAuthorization`): a payload's URL prefix or host
    /// matches, or `url` is a payload's IdP (its issuer or SAML entity ID).
    public func canPerformAuthorization(url: URL) -> Bool {
        catalog.match(url) != nil || identityProviderPayload(url) != nil
    }

    /// Answers `request`: never throws, and every answer passes the compact-response check.
    public func authorize(_ request: AuthorizationRequest) async -> AuthorizationResult {
        ResponseCompaction.check(await decide(request), limits: services.limits)
    }

    /// Continues the interaction `id` with the user's answer. An interaction is resumed at most once, before it
    /// expires; otherwise `interaction_expired`. ``InteractionResponse/cancel`` ends it (`canceled`).
    public func resume(interaction id: String, with response: InteractionResponse) async -> AuthorizationResult {
        ResponseCompaction.check(await continueInteraction(id, response), limits: services.limits)
    }

    /// The payload whose IdP `url` names.
    func identityProviderPayload(_ url: URL) -> SSOPayload? {
        let text = Self.trimmingSlashes(url.absoluteString)
        return identityProviderPrefixes.first { entry in
            text == entry.prefix || text.hasPrefix(entry.prefix + "/") || text.hasPrefix(entry.prefix + "?")
        }?.payload
    }

    private static func trimmingSlashes(_ text: String) -> String {
        var text = Substring(text)
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
