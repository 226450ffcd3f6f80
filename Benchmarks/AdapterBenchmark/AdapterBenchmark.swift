import BenchmarkSupport
import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTokenCache

/// The adapter's decision latency on its two hot paths, next to the token-cache hit they are built on, in the same
/// run on the same entries: a native app's `refresh` answered from the cache (200 with the tokens as JSON and
/// headers) and a credential challenge (`WWW-Authenticate: Bearer` → `Authorization: Bearer`). Each adapter call is
/// the whole pipeline: caller identifier, profile match, caller policy, screen lock, the handler, the cache hit, the
/// answer, the compact-response check. The target is at least 0.4 of the floor's ops/s.
///
/// Run: `swift build -c release --product AdapterBenchmark && .build/release/AdapterBenchmark 1`
@main
struct AdapterBenchmark {
    static func main() async throws {
        let seconds = measurementSeconds
        try await Task.detached { try await run(seconds: seconds) }.value
    }

    static let issuer = "https://idp.example.com"

    static func payload(_ identifier: String, type: String, routes: String) -> String {
        """
        {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)", "Type": "\(type)",
         "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", \(routes),
         "ExtensionData": {"protocol": "oidc", "issuer": "\(issuer)", "client_id": "c", "scopes": "openid profile",
          "redirect_uri": "com.example.ext:/callback", "AppBlockList": ["com.example.blocked"]}}
        """
    }

    static func run(seconds: Double) async throws {
        let profile = try ProfileLoader().load(
            Array(
                ("{\"PayloadContent\": ["
                    + payload("oidc", type: "Redirect", routes: #""URLs": ["https://idp.example.com/oauth2/"]"#) + ","
                    + payload("api", type: "Credential", routes: #""Hosts": [".api.example.com"]"#) + "]}").utf8))
        let cache = TokenCache(store: InMemoryTokenCacheStore(), key: CacheEncryptionKey.generate())
        let adapter = RedirectExtension(
            catalog: try ProfileCatalog(profile),
            environment: ExtensionEnvironment(tokenCache: cache, transport: RefusingTransport()))
        let app = "com.example.mail"
        let key = TokenCacheKey(application: app, issuer: issuer, clientID: "c", scopes: ["openid", "profile"])
        try await cache.store(
            CachedTokens(
                accessToken: token(900), refreshToken: "r", idToken: token(800), tokenType: "Bearer",
                accessTokenExpiresAt: Date().addingTimeInterval(86_400), scopes: ["openid", "profile"]), for: key)

        let refresh = AuthorizationRequest(
            url: URL(string: "https://idp.example.com/oauth2/"), callerBundleIdentifier: app,
            isUserInterfaceEnabled: false, operation: .refresh)
        var challengeHeaders = HTTPFields()
        challengeHeaders[.wwwAuthenticate] = #"Bearer realm="api""#
        let challenge = AuthorizationRequest(
            url: URL(string: "https://eu.api.example.com/v1/items"), httpHeaders: challengeHeaders,
            callerBundleIdentifier: app, isUserInterfaceEnabled: false)
        guard case .httpResponse(let response) = await adapter.authorize(refresh), response.status == 200,
            case .authorizationHeaders = await adapter.authorize(challenge)
        else {
            print("the adapter did not answer from the cache")
            return
        }
        print(
            "Adapter decisions (\(seconds) s per measurement; a 1.7 KB token pair, \(response.countedBytes) B answer)")

        // The floor is measured before and after the adapter, and the faster run counts (the stricter target).
        let floorBefore = try await measure(seconds: seconds) { _ = try await cache.validTokens(for: key) { $0 } }
        printLine("floor: TokenCache.validTokens hit", floorBefore)
        var failures = 0
        let refreshes = await measure(seconds: seconds) {
            if case .failure = await adapter.authorize(refresh) { failures += 1 }
        }
        printLine("adapter: refresh from the cache (200 + JSON)", refreshes)
        let challenges = await measure(seconds: seconds) {
            if case .failure = await adapter.authorize(challenge) { failures += 1 }
        }
        printLine("adapter: Bearer challenge", challenges)
        var blocked = refresh
        blocked.callerBundleIdentifier = "com.example.blocked"
        let denied = await measure(seconds: seconds) {
            if await adapter.authorize(blocked) != .doNotHandle { failures += 1 }
        }
        printLine("adapter: a blocked app (doNotHandle)", denied)
        for (name, request) in [("refresh", refresh), ("challenge", challenge)] {
            guard let url = request.url else { continue }
            let matches = await measure(seconds: seconds) {
                if adapter.catalog.match(url) == nil { failures += 1 }
            }
            printLine("profile match alone (\(name) URL)", matches)
        }
        let floorAfter = try await measure(seconds: seconds) { _ = try await cache.validTokens(for: key) { $0 } }
        printLine("floor again, after the adapter", floorAfter)
        let floor = floorAfter.opsPerSecond > floorBefore.opsPerSecond ? floorAfter : floorBefore
        for (name, statistics) in [("refresh", refreshes), ("Bearer challenge", challenges)] {
            let ratio = statistics.opsPerSecond / floor.opsPerSecond
            let verdict = ratio >= 0.4 ? "meets" : "misses"
            print("  \(name): \(String(format: "%.2f", ratio)) × the floor's ops/s (\(verdict) the 0.4 target)")
        }
        if failures > 0 { print("  \(failures) calls failed") }
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
