import BrowserTestSupport
import Foundation
import SSOKitHummingbird
import Testing

@testable import SSOKitDemo

/// A real browser through the intercepting proxy: Debian's headless Chromium signs in to the OIDC web app (the
/// extension asks for credentials once and answers with a compact 302), then to the SAML web app with no question
/// (the extension answers with a compact auto-post form, which Chromium's script posts under the form's CSP).
@Suite(.serialized) struct ChromiumSingleSignOnTests {
    @Test("Chromium: one login, then a second web app signs in through the compact 302 and auto-post form")
    func chromiumSingleSignOn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-demo-chromium-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let chromium = try Chromium.prepare()
        defer { chromium.removeHome() }
        let servers = try await DemoServers.start(
            cacheFile: folder.appendingPathComponent("cache.sqlite").path, suppliedPassword: nil)
        do {
            // Chromium never proxies loopback through a PAC file: a fixed proxy with the loopback bypass lifted.
            let proxy = Chromium.ProxySetting.server(port: servers.proxyPort)
            let oidc = try await chromium.dumpDOM(
                servers.webAppsURL + "/oidc/", proxy: proxy, virtualTimeMilliseconds: 10_000)
            #expect(oidc.contains("OIDC web app: signed in as Demo User"), "\(oidc)")
            let first = servers.exchangeLog.exchanges()
            #expect(first.contains { $0.askedForCredentials })
            #expect(first.contains { $0.result == "http_response" && ($0.responseBytes ?? 0) > 0 })

            let saml = try await chromium.dumpDOM(
                servers.webAppsURL + "/saml/", proxy: proxy, virtualTimeMilliseconds: 10_000)
            #expect(saml.contains("SAML web app: signed in as Demo User"), "\(saml)")
            let second = servers.exchangeLog.exchanges(since: first.count)
            #expect(!second.isEmpty && !second.contains { $0.askedForCredentials }, "\(second)")
            #expect(second.contains { $0.url.contains("/saml/sso") && $0.result == "http_response" })
            await servers.shutdown()
        } catch {
            await servers.shutdown()
            throw error
        }
    }
}
