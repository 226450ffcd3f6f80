import BrowserTestSupport
import Foundation
import HTTPTypes
import SSOKitProxy
import Testing

/// A real browser: headless Chromium trusts the local authority through its NSS database (the real trust store)
/// and shows the interceptor's answers. With the PAC file it sends an http and an https prefix's hosts through the
/// proxy; with the proxy set for loopback too, a loopback prefix is intercepted and a page outside it comes from
/// the origin through the proxy. Fails, never skips, where Chromium cannot start.
@Suite("Chromium through the intercepting proxy", .serialized)
struct ChromiumInterceptionTests {
    private static func html(_ status: HTTPResponse.Status, _ marker: String) -> InterceptionDecision {
        var response = HTTPResponse(status: status)
        response.headerFields[.contentType] = "text/html; charset=utf-8"
        return .respond(response, body: page(marker))
    }

    private static func page(_ marker: String) -> [UInt8] {
        Array("<!doctype html><html><body><p id=\"marker\">\(marker)</p></body></html>".utf8)
    }

    private static func redirect(_ location: String) -> InterceptionDecision {
        var response = HTTPResponse(status: .found)
        response.headerFields[.location] = location
        return .respond(response)
    }

    private static func marker(_ text: String) -> String { "<p id=\"marker\">\(text)</p>" }

    @Test("Chromium shows the interceptor's answers for http, https and loopback prefixes and the origin's page")
    func chromiumThroughProxy() async throws {
        let origin = try await TestOrigin.start { _ in
            OriginAnswer(headers: [("Content-Type", "text/html")], body: Self.page("origin-page"))
        }
        let loopback = "http://127.0.0.1:\(origin.port)"
        let interceptor = RecordingInterceptor { request in
            switch (request.request.authority ?? "", request.request.path ?? "") {
            case ("sso.example.test", "/sso/start"): Self.redirect("http://sso.example.test/sso/landing")
            case ("sso.example.test", "/sso/landing"): Self.html(.ok, "intercepted-http")
            case ("idp.example.test", "/authorize?client_id=app"):
                Self.redirect("https://idp.example.test/authorize/done")
            case ("idp.example.test", "/authorize/done"): Self.html(.ok, "intercepted-https")
            case (_, "/sso/start"): Self.redirect("\(loopback)/sso/landing")
            case (_, "/sso/landing"): Self.html(.ok, "intercepted-loopback")
            default: Self.html(.notFound, "unexpected")
            }
        }
        let authority = try LocalCertificateAuthority.create(permittedHosts: ["idp.example.test"])
        let prefixes = [
            try InterceptPrefix("http://sso.example.test/sso/"),
            try InterceptPrefix("https://idp.example.test/authorize"),
            try InterceptPrefix("\(loopback)/sso/"),
        ]
        let chromium = try Chromium.prepare(trusting: try authority.certificatePEM)
        defer { chromium.removeHome() }
        try await withProxy(
            ProxyConfiguration(interceptPrefixes: prefixes, certificateAuthority: authority), interceptor: interceptor
        ) { proxy in
            let pac = try ProxyAutoConfig(prefixes: prefixes, proxyPort: proxy.port).script
            let pacServer = try await TestOrigin.start { _ in
                OriginAnswer(headers: [("Content-Type", ProxyAutoConfig.contentType)], body: Array(pac.utf8))
            }
            let viaPAC = Chromium.ProxySetting.pac("http://127.0.0.1:\(pacServer.port)/proxy.pac")
            let http = try await chromium.dumpDOM("http://sso.example.test/sso/start", proxy: viaPAC)
            let https = try await chromium.dumpDOM("https://idp.example.test/authorize?client_id=app", proxy: viaPAC)
            await pacServer.stop()
            let fixed = Chromium.ProxySetting.server(port: proxy.port)
            let loopbackAnswer = try await chromium.dumpDOM("\(loopback)/sso/start", proxy: fixed)
            let passed = try await chromium.dumpDOM("\(loopback)/app", proxy: fixed)
            #expect(http.contains(Self.marker("intercepted-http")), "\(http)")
            #expect(https.contains(Self.marker("intercepted-https")), "\(https)")
            #expect(loopbackAnswer.contains(Self.marker("intercepted-loopback")), "\(loopbackAnswer)")
            #expect(passed.contains(Self.marker("origin-page")), "\(passed)")
        }
        let seen = interceptor.requests.map {
            "\($0.request.scheme ?? "")://\($0.request.authority ?? "")\($0.request.path ?? "")"
        }
        #expect(seen.contains("http://sso.example.test/sso/landing"))
        #expect(seen.contains("https://idp.example.test/authorize/done"))
        #expect(seen.contains("\(loopback)/sso/landing"))
        let tlsFlags = interceptor.requests.filter { $0.request.scheme == "https" }.map(\.arrivedThroughTLSInterception)
        #expect(tlsFlags == [true, true])
        let app = try #require(origin.requests.first { $0.uri == "/app" })
        #expect(app.values("via") == ["1.1 ssokit"], "the page outside the prefixes did not come through the proxy")
        #expect(!origin.requests.contains { $0.uri.hasPrefix("/sso/") })
        await origin.stop()
    }
}
