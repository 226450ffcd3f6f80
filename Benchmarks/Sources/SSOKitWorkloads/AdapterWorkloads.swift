import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTokenCache

/// The adapter's decision on its two hot paths, beside the token-cache hit they are built on: a native app's
/// `refresh` answered from the cache (200 with the tokens as JSON and headers) and a credential challenge
/// (`WWW-Authenticate: Bearer` → `Authorization: Bearer`). Each call is the whole pipeline: caller identifier,
/// profile match, caller policy, screen lock, the handler, the cache hit, the answer, the compact-response check.
/// Also: a blocked app (`doNotHandle`), and the profile match alone for both URLs.
enum AdapterWorkloads {
    static var all: [Workload] {
        [
            TokenCacheWorkloads.memoryHit(suite: "Adapter"),
            Workload("Adapter", "refresh-from-cache") {
                let setup = try await AdapterSetup()
                return .async {
                    guard case .httpResponse(let response) = await setup.adapter.authorize(setup.refresh),
                        response.status == 200
                    else { throw WorkloadFailure("the refresh was not answered from the cache") }
                }
            },
            Workload("Adapter", "bearer-challenge") {
                let setup = try await AdapterSetup()
                return .async {
                    guard case .authorizationHeaders = await setup.adapter.authorize(setup.challenge) else {
                        throw WorkloadFailure("the challenge was not answered")
                    }
                }
            },
            Workload("Adapter", "blocked-app", gated: false) {
                let setup = try await AdapterSetup()
                var blocked = setup.refresh
                blocked.callerBundleIdentifier = "com.example.blocked"
                return .async {
                    guard await setup.adapter.authorize(blocked) == .doNotHandle else {
                        throw WorkloadFailure("a blocked app was handled")
                    }
                }
            },
            profileMatch("refresh") { $0.refresh },
            profileMatch("challenge") { $0.challenge },
        ]
    }

    static func profileMatch(_ name: String, _ request: @escaping @Sendable (AdapterSetup) -> AuthorizationRequest)
        -> Workload
    {
        Workload("Adapter", "profile-match-\(name)-url", gated: false) {
            let setup = try await AdapterSetup()
            guard let url = request(setup).url else { throw WorkloadFailure("no URL") }
            let catalog = setup.adapter.catalog
            return .sync { guard catalog.match(url) != nil else { throw WorkloadFailure("no match") } }
        }
    }
}

/// An adapter with one Redirect and one Credential payload over an in-memory cache holding a 1.7 KB token pair,
/// and the two requests it answers from the cache.
struct AdapterSetup: Sendable {
    static let issuer = "https://idp.example.com"
    let adapter: RedirectExtension
    let refresh: AuthorizationRequest
    let challenge: AuthorizationRequest

    init() async throws {
        let profile = try ProfileLoader().load(
            Array(
                ("{\"PayloadContent\": ["
                    + Self.payload("oidc", type: "Redirect", routes: #""URLs": ["https://idp.example.com/oauth2/"]"#)
                    + "," + Self.payload("api", type: "Credential", routes: #""Hosts": [".api.example.com"]"#)
                    + "]}").utf8))
        let cache = TokenCache(store: InMemoryTokenCacheStore(), key: CacheEncryptionKey.generate())
        adapter = RedirectExtension(
            catalog: try ProfileCatalog(profile),
            environment: ExtensionEnvironment(tokenCache: cache, transport: RefusingTransport()))
        let app = "com.example.mail"
        let key = TokenCacheKey(application: app, issuer: Self.issuer, clientID: "c", scopes: ["openid", "profile"])
        try await cache.store(
            CachedTokens(
                accessToken: Self.token(900), refreshToken: "r", idToken: Self.token(800), tokenType: "Bearer",
                accessTokenExpiresAt: Date().addingTimeInterval(86_400), scopes: ["openid", "profile"]), for: key)
        refresh = AuthorizationRequest(
            url: URL(string: "https://idp.example.com/oauth2/"), callerBundleIdentifier: app,
            isUserInterfaceEnabled: false, operation: .refresh)
        var challengeHeaders = HTTPFields()
        challengeHeaders[.wwwAuthenticate] = #"Bearer realm="api""#
        challenge = AuthorizationRequest(
            url: URL(string: "https://eu.api.example.com/v1/items"), httpHeaders: challengeHeaders,
            callerBundleIdentifier: app, isUserInterfaceEnabled: false)
    }

    static func payload(_ identifier: String, type: String, routes: String) -> String {
        """
        {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)", "Type": "\(type)",
         "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", \(routes),
         "ExtensionData": {"protocol": "oidc", "issuer": "\(issuer)", "client_id": "c", "scopes": "openid profile",
          "redirect_uri": "com.example.ext:/callback", "AppBlockList": ["com.example.blocked"]}}
        """
    }

    /// A token of `count` base64url characters.
    static func token(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<count).map { alphabet[($0 * 7 + 3) % alphabet.count] })
    }
}

/// A transport that refuses every request: a cache hit must not reach the network.
struct RefusingTransport: HTTPTransport {
    func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> HTTPTransportResponse {
        throw HTTPTransportError(.connectionFailed, "the benchmark has no IdP")
    }
}
