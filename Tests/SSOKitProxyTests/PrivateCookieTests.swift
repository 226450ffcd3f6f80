import SSOKitProxy
import Testing

/// The host's own cookies (``ProxyConfiguration/privateCookieNamePrefixes``) never reach an origin: not on a
/// request outside the prefixes, and not on an intercepted request the interceptor passes through. Other cookies
/// travel as they were.
@Suite("Private cookies")
struct PrivateCookieTests {
    @Test("Cookies named with a private prefix are removed from forwarded requests; the others are kept")
    func privateCookiesRemoved() async throws {
        let origin = try await TestOrigin.start()
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        var configuration = ProxyConfiguration(interceptPrefixes: [prefix])
        configuration.privateCookieNamePrefixes = ["ssokit_signin_"]
        let interceptor = RecordingInterceptor { _ in .passThrough }
        try await withProxy(configuration, interceptor: interceptor) { proxy in
            for path in ["/app", "/sso/authorize"] {
                let response = try await RawClient.exchange(
                    "GET http://127.0.0.1:\(origin.port)\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\n"
                        + "Cookie: idp=1; ssokit_signin_abc=secret-1\r\nCookie: ssokit_signin_def=secret-2\r\n"
                        + "Connection: close\r\n\r\n", port: proxy.port)
                #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(response)")
            }
        }
        #expect(interceptor.requests.count == 1)
        #expect(origin.requests.count == 2)
        for seen in origin.requests {
            #expect(seen.values("cookie") == ["idp=1"], "\(seen.uri)")
        }
        await origin.stop()
    }

    @Test("Without private prefixes every cookie is forwarded as it was")
    func cookiesKeptByDefault() async throws {
        let origin = try await TestOrigin.start()
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        let interceptor = RecordingInterceptor { _ in .passThrough }
        try await withProxy(ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor) { proxy in
            _ = try await RawClient.exchange(
                "GET http://127.0.0.1:\(origin.port)/app HTTP/1.1\r\nHost: 127.0.0.1:\(origin.port)\r\n"
                    + "Cookie: idp=1; ssokit_signin_abc=secret-1\r\nConnection: close\r\n\r\n", port: proxy.port)
        }
        #expect(origin.requests.first?.values("cookie") == ["idp=1; ssokit_signin_abc=secret-1"])
        await origin.stop()
    }
}
