import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTokenCache

/// A redirect-extension adapter wired to an ``InMemoryIdentityProvider`` and an in-memory token cache, on an
/// ``AdjustableClock``: what the adapter's tests, its fixture runner and its benchmark start from.
public struct AdapterHarness: Sendable {
    /// The clock of the IdP, the cache and the adapter.
    public let clock: AdjustableClock
    /// The IdP.
    public let idp: InMemoryIdentityProvider
    /// The store under the cache.
    public let store: InMemoryTokenCacheStore
    /// The cache key.
    public let key: CacheEncryptionKey
    /// The token cache.
    public let cache: TokenCache
    /// The profile's payloads.
    public let catalog: ProfileCatalog
    /// The adapter.
    public let adapter: RedirectExtension

    /// An adapter for `payloads` (payload dictionaries as JSON text; see ``oidcPayload(_:type:routes:extra:payloadExtra:)``).
    /// Paths in the payloads are read from disk (``FixtureFileReader``), relative to `directory`.
    public init(
        payloads: [String], limits: ExtensionLimits = ExtensionLimits(), idp: InMemoryIdentityProvider? = nil,
        clock: AdjustableClock = AdjustableClock(), store: InMemoryTokenCacheStore = InMemoryTokenCacheStore(),
        key: CacheEncryptionKey = .generate(), directory: String? = nil,
        configure: (inout ExtensionEnvironment) -> Void = { _ in }
    ) throws {
        try self.init(
            profile: Array(("{\"PayloadContent\": [" + payloads.joined(separator: ",") + "]}").utf8),
            limits: limits, idp: idp, clock: clock, store: store, key: key, directory: directory,
            configure: configure)
    }

    /// An adapter for the profile `profile` (JSON or a property list); its paths are read from disk relative to
    /// `directory`.
    public init(
        profile: [UInt8], limits: ExtensionLimits = ExtensionLimits(), idp: InMemoryIdentityProvider? = nil,
        clock: AdjustableClock = AdjustableClock(), store: InMemoryTokenCacheStore = InMemoryTokenCacheStore(),
        key: CacheEncryptionKey = .generate(), directory: String? = nil,
        configure: (inout ExtensionEnvironment) -> Void = { _ in }
    ) throws {
        self.clock = clock
        self.idp = idp ?? InMemoryIdentityProvider(clock: clock)
        self.store = store
        self.key = key
        cache = TokenCache(store: store, key: key, clock: clock)
        let loaded = try ProfileLoader(fileReader: FixtureFileReader(), clock: clock).load(
            profile, directory: directory)
        catalog = try ProfileCatalog(loaded)
        var environment = ExtensionEnvironment(
            tokenCache: cache, transport: self.idp.transport, clock: clock, limits: limits)
        configure(&environment)
        adapter = RedirectExtension(catalog: catalog, environment: environment)
    }

    /// Another adapter on the same store, key, IdP and clock: a second instance of a scaled-out service.
    public func sibling() throws -> AdapterHarness {
        try AdapterHarness(idp: idp, clock: clock, store: store, key: key, catalog: catalog)
    }

    private init(
        idp: InMemoryIdentityProvider, clock: AdjustableClock, store: InMemoryTokenCacheStore,
        key: CacheEncryptionKey, catalog: ProfileCatalog
    ) throws {
        self.clock = clock
        self.idp = idp
        self.store = store
        self.key = key
        cache = TokenCache(store: store, key: key, clock: clock)
        self.catalog = catalog
        adapter = RedirectExtension(
            catalog: catalog,
            environment: ExtensionEnvironment(tokenCache: cache, transport: idp.transport, clock: clock))
    }

    /// The redirect URI of the harness payloads (a private-use scheme, RFC 8252 §7.1).
    public static let redirectURI = "com.example.ext:/oauth2/callback"

    /// An OIDC payload for the in-memory IdP: `routes` is `"URLs": [...]` or `"Hosts": [...]`; `extra` adds
    /// ExtensionData members (JSON text after a comma).
    public static func oidcPayload(
        _ identifier: String = "test.oidc", type: String = "Redirect",
        routes: String = #""URLs": ["https://idp.test/authorize"]"#, extra: String = "", payloadExtra: String = ""
    ) -> String {
        """
        {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)",
         "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", "Type": "\(type)", \(routes)\(payloadExtra),
         "ExtensionData": {"protocol": "oidc", "issuer": "https://idp.test", "client_id": "adapter-client",
          "client_secret": "adapter-secret", "scopes": "openid profile", "redirect_uri": "\(redirectURI)"\(extra)}}
        """
    }

    /// A SAML payload for the in-memory IdP's SSO endpoint and the SP of `fixtures/saml` (its signing certificate
    /// pinned from `fixtures/saml/keys/idp.crt`, relative to the harness directory); `extra` adds ExtensionData
    /// members.
    public static func samlPayload(_ identifier: String = "test.saml", extra: String = "") -> String {
        """
        {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)",
         "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
         "URLs": ["https://idp.test/saml/"],
         "ExtensionData": {"protocol": "saml", "idp_certificate": "saml/keys/idp.crt",
          "idp_entity_id": "https://idp.example.com/saml", "sp_entity_id": "https://sp.example.com/saml",
          "acs_url": "https://sp.example.com/saml/acs"\(extra)}}
        """
    }

    /// A native-operation request from `app`.
    public func operation(
        _ operation: AuthorizationOperation, app: String, ui: Bool = true, options: [String: String] = [:]
    ) -> AuthorizationRequest {
        AuthorizationRequest(
            url: URL(string: "https://idp.test/authorize"), callerBundleIdentifier: app, isUserInterfaceEnabled: ui,
            operation: operation, authorizationOptions: options)
    }

    /// Logs `app` in: `login`, and when the IdP shows its form, the user's name and password.
    @discardableResult
    public func login(_ app: String) async -> AuthorizationResult {
        let result = await adapter.authorize(operation(.login, app: app))
        guard case .needsInteraction(let interaction) = result else { return result }
        return await adapter.resume(
            interaction: interaction.id, with: .credentials(["username": idp.username, "password": idp.password]))
    }
}
