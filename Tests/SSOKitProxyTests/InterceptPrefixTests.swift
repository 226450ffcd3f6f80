import SSOKitProxy
import Testing

/// The prefix rule is the profile matcher's: scheme, host (ignoring case) and port equal, then the path starts
/// with the prefix's path, byte for byte.
@Suite("Intercept prefixes")
struct InterceptPrefixTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let prefix: String
        let scheme: String
        let host: String
        let port: Int?
        let path: String
        let matches: Bool
        init(_ prefix: String, _ scheme: String, _ host: String, _ port: Int?, _ path: String, _ matches: Bool) {
            (self.prefix, self.scheme, self.host, self.port, self.path, self.matches) = (
                prefix, scheme, host, port, path, matches
            )
        }

        var testDescription: String { "\(prefix) vs \(scheme)://\(host):\(port.map(String.init) ?? "-")\(path)" }
    }

    static let cases: [Case] = [
        Case("https://IdP.Example.com/sso", "https", "idp.example.com", nil, "/sso/x", true),
        Case("https://idp.example.com/sso", "HTTPS", "IDP.EXAMPLE.COM", 443, "/sso", true),
        Case("https://idp.example.com:443/sso", "https", "idp.example.com", nil, "/sso", true),
        Case("https://idp.example.com./sso", "https", "idp.example.com", nil, "/sso", true),
        Case("https://idp.example.com/sso", "https", "idp.example.com", 8443, "/sso", false),
        Case("https://idp.example.com/sso", "http", "idp.example.com", nil, "/sso", false),
        Case("https://idp.example.com/sso", "https", "evil-idp.example.com", nil, "/sso", false),
        Case("https://idp.example.com/sso", "https", "idp.example.com", nil, "/sso-other", true),
        Case("https://idp.example.com/sso/", "https", "idp.example.com", nil, "/sso", false),
        Case("https://idp.example.com/SSO", "https", "idp.example.com", nil, "/sso", false),
        Case("https://idp.example.com/a%2Fb", "https", "idp.example.com", nil, "/a/b", false),
        Case("https://idp.example.com", "https", "idp.example.com", nil, "/anything", true),
        Case("http://127.0.0.1:8080/cb", "http", "127.0.0.1", 8080, "/cb", true),
        Case("http://[::1]:8080/cb", "http", "[::1]", 8080, "/cb", true),
        Case("http://[::1]:8080/cb", "http", "::1", 8080, "/cb", true),
    ]

    @Test("Matching", arguments: cases)
    func matching(_ testCase: Case) throws {
        let prefix = try InterceptPrefix(testCase.prefix)
        let origin = try #require(ProxyOrigin(scheme: testCase.scheme, host: testCase.host, port: testCase.port))
        #expect(prefix.matches(origin: origin, path: testCase.path) == testCase.matches)
    }

    @Test(
        "Prefixes that are not absolute http(s) URLs with a clean host are refused with invalid_prefix",
        arguments: [
            "ftp://idp.example.com/", "https:///sso", "https://user@idp.example.com/", "https://idp.example.com/?q=1",
            "https://idp.example.com/#f", "https://idp.example.com:99999/", "https://idp.example.com:0/",
            "https://exa mple.com/", #"https://a"b.example.com/"#, "https://a'+alert(1)+'.com/", "https://[zz::1]/",
            "https://%41.example.com/", "sso/relative", "", "javascript:alert(1)",
            "https://\(String(repeating: "a", count: 64)).example.com/",
        ])
    func invalidPrefix(_ url: String) {
        #expect(throws: ProxyError(.invalidPrefix, "")) { try InterceptPrefix(url) }
    }
}
