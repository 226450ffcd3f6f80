import Foundation
import HTTPTypes
import SSOKitProxy
import Testing

/// `InterceptingProxy.update`: a reload's new prefixes apply from the next request on, and an https prefix the
/// authority may not sign for is refused with the running rules kept.
@Suite("Replacing the intercept prefixes of a running proxy")
struct InterceptUpdateTests {
    @Test("After an update, the new prefix is intercepted and the old one passes through to its origin")
    func newPrefixesApply() async throws {
        let origin = try await TestOrigin.start()
        let interceptor = RecordingInterceptor.redirecting(to: "https://app.example/done")
        let old = try InterceptPrefix("http://127.0.0.1:\(origin.port)/old/")
        let new = try InterceptPrefix("http://127.0.0.1:\(origin.port)/new/")
        func get(_ path: String, _ port: Int) async throws -> String {
            try await RawClient.exchange(
                "GET http://127.0.0.1:\(origin.port)\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\n"
                    + "Connection: close\r\n\r\n", port: port)
        }
        try await withProxy(ProxyConfiguration(interceptPrefixes: [old]), interceptor: interceptor) { proxy in
            #expect(try await get("/old/a", proxy.port).hasPrefix("HTTP/1.1 302"))
            #expect(try await get("/new/a", proxy.port).hasPrefix("HTTP/1.1 200"))
            try proxy.update(interceptPrefixes: [new], allowedPorts: [443, 80])
            #expect(try await get("/new/b", proxy.port).hasPrefix("HTTP/1.1 302"))
            #expect(try await get("/old/b", proxy.port).hasPrefix("HTTP/1.1 200"))
        }
        #expect(interceptor.requests.map(\.request.path) == ["/old/a", "/new/b"])
        #expect(origin.requests.map(\.uri) == ["/new/a", "/old/b"])
        await origin.stop()
    }

    @Test("An https prefix without an authority, or outside its name constraints, is refused and nothing changes")
    func httpsPrefixNeedsAPermittingAuthority() async throws {
        let origin = try await TestOrigin.start()
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        let interceptor = RecordingInterceptor.redirecting(to: "https://app.example/done")
        try await withProxy(ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor) { proxy in
            #expect(throws: ProxyError(.invalidConfiguration, "")) {
                try proxy.update(
                    interceptPrefixes: [try InterceptPrefix("https://idp.example.test/sso/")], allowedPorts: [443])
            }
            let answer = try await RawClient.exchange(
                "GET http://127.0.0.1:\(origin.port)/sso/x HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\n"
                    + "Connection: close\r\n\r\n", port: proxy.port)
            #expect(answer.hasPrefix("HTTP/1.1 302"), "the running prefix stays")
        }
        let authority = try LocalCertificateAuthority.create(permittedHosts: ["idp.example.test"])
        var configuration = ProxyConfiguration(interceptPrefixes: [prefix], certificateAuthority: authority)
        configuration.allowedPorts = [443]
        try await withProxy(configuration, interceptor: interceptor) { proxy in
            try proxy.update(
                interceptPrefixes: [try InterceptPrefix("https://login.idp.example.test/sso/")], allowedPorts: [443])
            #expect(throws: ProxyError(.invalidConfiguration, "")) {
                try proxy.update(
                    interceptPrefixes: [try InterceptPrefix("https://other.example.test/sso/")], allowedPorts: [443])
            }
        }
        await origin.stop()
    }
}
