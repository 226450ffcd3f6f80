import BenchmarkSupport
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTokenCache

/// What matching a request to a profile costs, next to an in-memory token-cache hit in the same run (the floor the
/// adapter is measured against): a catalog of 101 Redirect and 100 Credential payloads, a Redirect URL under the
/// longer of two prefixes on its host, a Credential host found by its domain suffix, and a URL nothing handles.
///
/// Run: `swift build -c release --product ProfileMatchBenchmark && taskset -c 0 .build/release/ProfileMatchBenchmark 1`
@main
struct ProfileMatchBenchmark {
    static func main() async throws {
        let seconds = measurementSeconds
        try await Task.detached { try await run(seconds: seconds) }.value
    }

    static func payload(_ identifier: String, type: String, routes: String) -> String {
        """
        {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)", "Type": "\(type)",
         "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", \(routes),
         "ExtensionData": {"protocol": "oidc", "issuer": "https://idp.example.com", "client_id": "c"}}
        """
    }

    static func run(seconds: Double) async throws {
        var payloads: [String] = []
        for index in 0..<100 {
            payloads.append(
                payload(
                    "r\(index)", type: "Redirect",
                    routes: #""URLs": ["https://idp\#(index).example.com/", "https://idp\#(index).example.com/saml/"]"#)
            )
            payloads.append(
                payload("c\(index)", type: "Credential", routes: #""Hosts": [".corp\#(index).example.com"]"#))
        }
        payloads.append(payload("oidc", type: "Redirect", routes: #""URLs": ["https://login.example.com/oauth2/"]"#))
        let profile = try ProfileLoader().load(
            Array(("{\"PayloadContent\": [" + payloads.joined(separator: ",") + "]}").utf8))
        let catalog = try ProfileCatalog(profile)
        guard let redirect = URL(string: "https://idp42.example.com/saml/sso/redirect?SAMLRequest=fZJNT8MwDIbv"),
            let credential = URL(string: "https://api.eu.corp42.example.com/v1/items"),
            let miss = URL(string: "https://www.example.net/index.html")
        else { return }
        print("Profile matching (\(seconds) s per measurement; \(catalog.payloads.count) payloads)")

        let cache = TokenCache(store: InMemoryTokenCacheStore(), key: CacheEncryptionKey.generate())
        let key = TokenCacheKey(
            application: "bench", issuer: "https://idp.example.com", clientID: "c", scopes: ["openid"])
        try await cache.store(
            CachedTokens(
                accessToken: String(repeating: "a", count: 900), refreshToken: "r",
                idToken: String(repeating: "i", count: 800),
                tokenType: "Bearer", accessTokenExpiresAt: Date().addingTimeInterval(86_400)), for: key)
        let floor = try await measure(seconds: seconds) { _ = try await cache.validTokens(for: key) { $0 } }
        printLine("floor: in-memory TokenCache.validTokens hit", floor)

        var found = 0
        // What any matcher pays to read the parts it compares from Foundation's URL.
        let accessors = await measure(seconds: seconds) {
            found &+=
                (redirect.scheme?.utf8.count ?? 0) + (redirect.host(percentEncoded: true)?.utf8.count ?? 0)
                + (redirect.port ?? 0) + redirect.path(percentEncoded: true).utf8.count
        }
        printLine("URL accessors alone (scheme, host, port, path)", accessors)
        let redirectMatch = await measure(seconds: seconds) { if catalog.match(redirect) != nil { found += 1 } }
        printLine("match: Redirect URL (longest prefix)", redirectMatch)
        let credentialMatch = await measure(seconds: seconds) { if catalog.match(credential) != nil { found += 1 } }
        printLine("match: Credential host (domain suffix)", credentialMatch)
        let missed = await measure(seconds: seconds) { if catalog.match(miss) != nil { found += 1 } }
        printLine("match: unhandled URL", missed)
        let parsed = await measure(seconds: seconds) {
            if let url = URL(string: "https://idp42.example.com/saml/sso?x=1"), catalog.match(url) != nil { found += 1 }
        }
        printLine("URL(string:) + match", parsed)
        for (name, statistics) in [("Redirect", redirectMatch), ("Credential", credentialMatch)] {
            let share = floor.percentile(0.5) > 0 ? statistics.percentile(0.5) / floor.percentile(0.5) : 0
            print("  \(name) match p50 = \(String(format: "%.2f", share)) × the cache hit's p50")
        }
        if found == 0 { print("nothing matched") }
    }
}
