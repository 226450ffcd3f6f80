import Foundation
import SSOKitProxy
import Testing

/// The PAC file sends only the prefixes' origins through the proxy, and no profile value can become script.
@Suite("Proxy auto-config")
struct ProxyAutoConfigTests {
    private func pac() throws -> ProxyAutoConfig {
        try ProxyAutoConfig(
            prefixes: [
                try InterceptPrefix("https://idp.example.test/sso/"),
                try InterceptPrefix("https://IDP.example.test/saml/"),
                try InterceptPrefix("http://127.0.0.1:8080/callback"),
                try InterceptPrefix("https://login_host.example.test:8443/"),
                try InterceptPrefix("http://[::1]:9000/"),
            ], proxyPort: 3128)
    }

    @Test("Each origin appears once, and the directive names the proxy")
    func content() throws {
        let pac = try pac()
        #expect(
            pac.origins.map(\.description) == [
                "http://127.0.0.1:8080", "http://[::1]:9000", "https://idp.example.test:443",
                "https://login_host.example.test:8443",
            ])
        #expect(pac.directive == "PROXY 127.0.0.1:3128")
        #expect(pac.script.contains("function FindProxyForURL(url, host)"))
        #expect(ProxyAutoConfig.contentType == "application/x-ns-proxy-autoconfig")
    }

    @Test("A proxy host that is not a host name or IP literal is refused with invalid_host")
    func hostileProxyHost() throws {
        for host in [#"127.0.0.1";alert(1);//"#, "a b", "", "evil\"host"] {
            #expect(throws: ProxyError(.invalidHost, "")) {
                try ProxyAutoConfig(prefixes: [], proxyHost: host, proxyPort: 1)
            }
        }
        #expect(throws: ProxyError(.invalidHost, "")) { try ProxyAutoConfig(prefixes: [], proxyPort: 0) }
    }

    @Test("Evaluated by a JavaScript engine (node), only the prefixes' origins go through the proxy")
    func evaluatedByNode() throws {
        let node = try #require(
            ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "node is not installed: .ci/install-deps installs Debian's nodejs")
        let expectations: [(String, String)] = [
            ("https://idp.example.test/", "PROXY 127.0.0.1:3128"),
            ("https://IDP.EXAMPLE.TEST:443/", "PROXY 127.0.0.1:3128"),
            ("https://idp.example.test./", "PROXY 127.0.0.1:3128"),
            ("http://idp.example.test/sso/", "DIRECT"),
            ("https://idp.example.test:8443/", "DIRECT"),
            ("https://sub.idp.example.test/", "DIRECT"),
            ("https://example.test/", "DIRECT"),
            ("http://127.0.0.1:8080/callback?code=1", "PROXY 127.0.0.1:3128"),
            ("http://127.0.0.1/", "DIRECT"),
            ("https://login_host.example.test:8443/x", "PROXY 127.0.0.1:3128"),
            ("http://[::1]:9000/", "PROXY 127.0.0.1:3128"),
            ("http://user@127.0.0.1:8080/", "PROXY 127.0.0.1:3128"),
            ("ftp://idp.example.test/", "DIRECT"),
            ("not a url", "DIRECT"),
        ]
        let urls = expectations.map(\.0)
        let harness =
            try pac().script + "\nconst urls = " + String(decoding: try JSONEncoder().encode(urls), as: UTF8.self)
            + ";\nfor (const u of urls) { console.log(FindProxyForURL(u, '')); }\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-pac-\(UUID().uuidString).js")
        try harness.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = [file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let answers = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(answers == expectations.map(\.1))
    }
}
