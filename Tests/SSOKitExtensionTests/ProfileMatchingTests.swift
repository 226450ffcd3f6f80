import Foundation
import SSOKitExtension
import Testing

@Suite("Matching requests to payloads as the OS does")
struct ProfileMatchingTests {
    static func catalog(_ payloads: String...) throws -> ProfileCatalog {
        let body = "{\"PayloadContent\": [" + payloads.joined(separator: ",") + "]}"
        return try ProfileCatalog(ProfileLoader().load(Array(body.utf8)))
    }

    static func identifier(_ catalog: ProfileCatalog, _ url: String) -> String? {
        URL(string: url).flatMap { catalog.match($0)?.payload.identifier }
    }

    @Test("Redirect: the longest path prefix wins, paths are case-sensitive and compared as written (percent-encoded)")
    func longestPrefix() throws {
        let catalog = try Self.catalog(
            ProfileFixtures.payload("root", routes: #""URLs": ["https://idp.example.com"]"#),
            ProfileFixtures.payload("a", routes: #""URLs": ["https://idp.example.com/a"]"#),
            ProfileFixtures.payload(
                "ab", routes: #""URLs": ["https://idp.example.com/a/b/", "https://idp.example.com/%7Euser/"]"#))
        #expect(Self.identifier(catalog, "https://idp.example.com/a/b/c") == "ab")
        #expect(Self.identifier(catalog, "https://idp.example.com/a/b") == "a")
        #expect(Self.identifier(catalog, "https://idp.example.com/abc") == "a", "a prefix is a string prefix")
        #expect(Self.identifier(catalog, "https://idp.example.com/A/b/c") == "root")
        #expect(Self.identifier(catalog, "https://idp.example.com/%7Euser/x") == "ab")
        #expect(Self.identifier(catalog, "https://idp.example.com/~user/x") == "root")
        #expect(Self.identifier(catalog, "https://idp.example.com") == "root")
        let url = try #require(URL(string: "https://idp.example.com/a/b/c"))
        let match = try #require(catalog.match(url))
        #expect(match.rule == .urlPrefix(match.payload.urls[0]))
        #expect(match.type == .redirect)
    }

    @Test("Redirect: scheme and host ignore case; the port must be equal (the default one filled in); IPv6 hosts")
    func origins() throws {
        let catalog = try Self.catalog(
            ProfileFixtures.payload(
                "p",
                routes: #""URLs": ["HTTPS://IdP.Example.COM/sso/", "http://[::1]:8080/", "http://localhost:9000/x"]"#))
        #expect(Self.identifier(catalog, "https://idp.example.com/sso/x") == "p")
        #expect(Self.identifier(catalog, "hTTps://IDP.EXAMPLE.COM:443/sso/") == "p")
        #expect(Self.identifier(catalog, "https://idp.example.com:8443/sso/") == nil)
        #expect(Self.identifier(catalog, "http://idp.example.com/sso/") == nil)
        #expect(Self.identifier(catalog, "https://idp.example.com/SSO/") == nil)
        #expect(Self.identifier(catalog, "http://[::1]:8080/anything") == "p")
        #expect(Self.identifier(catalog, "http://[0:0:0:0:0:0:0:1]:8080/") == nil, "hosts are compared as written")
        #expect(Self.identifier(catalog, "http://LOCALHOST:9000/x/y") == "p")
        #expect(Self.identifier(catalog, "mailto:someone@idp.example.com") == nil)
    }

    @Test("Credential: exact host beats any suffix, the longest suffix wins, a suffix never matches its own domain")
    func credentialHosts() throws {
        let catalog = try Self.catalog(
            ProfileFixtures.payload("exact", type: "Credential", routes: #""Hosts": ["api.corp.example.com"]"#),
            ProfileFixtures.payload("corp", type: "Credential", routes: #""Hosts": [".corp.example.com"]"#),
            ProfileFixtures.payload("all", type: "Credential", routes: #""Hosts": [".example.com", "EXAMPLE.org"]"#))
        #expect(catalog.credentialMatch(host: "api.corp.example.com")?.payload.identifier == "exact")
        #expect(catalog.credentialMatch(host: "API.Corp.Example.com.")?.payload.identifier == "exact")
        #expect(catalog.credentialMatch(host: "x.api.corp.example.com")?.payload.identifier == "corp")
        #expect(catalog.credentialMatch(host: "www.corp.example.com")?.payload.identifier == "corp")
        #expect(catalog.credentialMatch(host: "corp.example.com")?.payload.identifier == "all")
        #expect(catalog.credentialMatch(host: "example.com") == nil)
        #expect(catalog.credentialMatch(host: "badexample.com") == nil)
        #expect(catalog.credentialMatch(host: "example.org")?.payload.identifier == "all")
        #expect(catalog.credentialMatch(host: "www.example.org") == nil)
        let match = try #require(catalog.credentialMatch(host: "www.corp.example.com"))
        #expect(match.rule == .host(match.payload.hosts[0]))
        #expect(match.payload.hosts[0].isSuffix)
        #expect(match.type == .credential)
    }

    @Test("a Redirect prefix is preferred over a Credential host for the same URL")
    func redirectBeforeCredential() throws {
        let catalog = try Self.catalog(
            ProfileFixtures.payload("redirect", routes: #""URLs": ["https://idp.example.com/login/"]"#),
            ProfileFixtures.payload("credential", type: "Credential", routes: #""Hosts": ["idp.example.com"]"#))
        #expect(Self.identifier(catalog, "https://idp.example.com/login/x") == "redirect")
        #expect(Self.identifier(catalog, "https://idp.example.com/api") == "credential")
        let api = try #require(URL(string: "https://idp.example.com/api"))
        #expect(catalog.redirectMatch(api) == nil)
    }

    @Test("payloads are found by identifier; an empty catalog matches nothing")
    func lookup() throws {
        let catalog = try Self.catalog(ProfileFixtures.payload("p", routes: #""URLs": ["https://a.example.com/"]"#))
        #expect(catalog.payload(identifier: "p")?.extensionIdentifier == "com.example.ext")
        #expect(catalog.payload(identifier: "q") == nil)
        let empty = try ProfileCatalog(profiles: [])
        let url = try #require(URL(string: "https://a.example.com/"))
        #expect(empty.match(url) == nil)
        #expect(empty.credentialMatch(host: "a.example.com") == nil)
    }

    @Test("matching stays fast with 100 payloads (an index, not a scan)")
    func speed() throws {
        var payloads: [String] = []
        for index in 0..<50 {
            payloads.append(
                ProfileFixtures.payload(
                    "r\(index)",
                    routes: #""URLs": ["https://idp\#(index).example.com/", "https://idp\#(index).example.com/saml/"]"#)
            )
            payloads.append(
                ProfileFixtures.payload(
                    "c\(index)", type: "Credential", routes: #""Hosts": [".corp\#(index).example.com"]"#))
        }
        let body = "{\"PayloadContent\": [" + payloads.joined(separator: ",") + "]}"
        let catalog = try ProfileCatalog(ProfileLoader().load(Array(body.utf8)))
        let urls = try [
            "https://idp7.example.com/saml/sso?SAMLRequest=abc", "https://www.corp31.example.com/api",
            "https://nothing.example.net/",
        ].map { try #require(URL(string: $0)) }
        var found = 0
        let start = ContinuousClock.now
        for round in 0..<300_000 where catalog.match(urls[round % 3]) != nil { found += 1 }
        let elapsed = ContinuousClock.now - start
        #expect(found == 200_000)
        // Debug builds are slow; this only guards against an accidental linear scan or re-parse per call.
        #expect(elapsed < .seconds(30), "300,000 matches took \(elapsed)")
    }
}
