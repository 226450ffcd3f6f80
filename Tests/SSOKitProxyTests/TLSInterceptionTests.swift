import AsyncHTTPClient
import HTTPTypes
import NIOHTTP1
import NIOSSL
import SSOKitProxy
import SwiftASN1
import Testing
import X509

/// CONNECT to an intercepted https origin is terminated with a leaf from the local authority; CONNECT anywhere
/// else is a blind tunnel.
@Suite("TLS interception and blind tunnels")
struct TLSInterceptionTests {
    private let authority: LocalCertificateAuthority

    init() throws {
        authority = try LocalCertificateAuthority.create(permittedHosts: ["idp.example.test", "localhost"])
    }

    private var authorityRoot: NIOSSLCertificate {
        get throws { try OriginCertificates.nio(authority.certificate) }
    }

    @Test("A browser that trusts only the local authority gets the interceptor's 302 for an https prefix")
    func interceptsHTTPSPrefix() async throws {
        let interceptor = RecordingInterceptor.redirecting(to: "https://app.example.test/callback?code=c")
        let configuration = ProxyConfiguration(
            interceptPrefixes: [try InterceptPrefix("https://idp.example.test/sso/")], certificateAuthority: authority)
        try await withProxy(configuration, interceptor: interceptor) { proxy in
            try await withProxiedClient(proxyPort: proxy.port, roots: [try authorityRoot]) { client in
                let answer = try await fetch(client, HTTPClientRequest(url: "https://idp.example.test/sso/start?x=1"))
                #expect(answer.status == 302)
                #expect(answer.headers["Location"] == ["https://app.example.test/callback?code=c"])
            }
        }
        let seen = try #require(interceptor.requests.first)
        #expect(seen.request.scheme == "https")
        #expect(seen.request.authority == "idp.example.test")
        #expect(seen.request.path == "/sso/start?x=1")
        #expect(seen.arrivedThroughTLSInterception)
    }

    @Test("The leaf the proxy presents names exactly the CONNECT host and is issued by the local authority")
    func leafNamesTheHost() async throws {
        let configuration = ProxyConfiguration(
            interceptPrefixes: [try InterceptPrefix("https://idp.example.test/sso/")], certificateAuthority: authority)
        let result = try await withProxy(configuration, interceptor: RecordingInterceptor.redirecting(to: "/next")) {
            proxy in
            try await RawClient.tunnelTLS(
                proxyPort: proxy.port, target: "idp.example.test:443", serverName: "idp.example.test",
                roots: [try authorityRoot],
                request: "GET /sso/x HTTP/1.1\r\nHost: idp.example.test\r\nConnection: close\r\n\r\n")
        }
        #expect(result.connect.hasPrefix("HTTP/1.1 200 "))
        #expect(result.response.hasPrefix("HTTP/1.1 302 Found\r\n"))
        let leaf = try #require(result.peer)
        #expect(try leaf.extensions.subjectAlternativeNames == SubjectAlternativeNames([.dnsName("idp.example.test")]))
        #expect(leaf.issuer == authority.certificate.subject)
        #expect(try leaf.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
    }

    @Test("Leaves are cached per host, and the cache is bounded")
    func leafCache() async throws {
        let authority = try LocalCertificateAuthority.create(permittedHosts: ["a.example.test", "b.example.test"])
        var configuration = ProxyConfiguration(
            interceptPrefixes: [
                try InterceptPrefix("https://a.example.test/"), try InterceptPrefix("https://b.example.test/"),
            ],
            certificateAuthority: authority)
        configuration.limits.maximumCachedLeaves = 1
        let root = try OriginCertificates.nio(authority.certificate)
        let serials = try await withProxy(configuration, interceptor: RecordingInterceptor.redirecting(to: "/next")) {
            proxy in
            var serials: [Certificate.SerialNumber?] = []
            for host in ["a.example.test", "a.example.test", "b.example.test", "a.example.test"] {
                let result = try await RawClient.tunnelTLS(
                    proxyPort: proxy.port, target: "\(host):443", serverName: host, roots: [root],
                    request: "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                serials.append(result.peer?.serialNumber)
            }
            return serials
        }
        #expect(serials.allSatisfy { $0 != nil })
        #expect(serials[0] == serials[1])
        #expect(serials[3] != serials[0])
    }

    @Test("A client that does not trust the local authority fails the handshake and gets nothing")
    func untrustedAuthorityFailsHandshake() async throws {
        let configuration = ProxyConfiguration(
            interceptPrefixes: [try InterceptPrefix("https://idp.example.test/sso/")], certificateAuthority: authority)
        let otherRoot = try OriginCertificates().nioRoot
        let interceptor = RecordingInterceptor.redirecting(to: "/next")
        await #expect(throws: (any Error).self) {
            try await withProxy(configuration, interceptor: interceptor) { proxy in
                try await RawClient.tunnelTLS(
                    proxyPort: proxy.port, target: "idp.example.test:443", serverName: "idp.example.test",
                    roots: [otherRoot], request: "GET /sso/x HTTP/1.1\r\nHost: idp.example.test\r\n\r\n")
            }
        }
        #expect(interceptor.requests.isEmpty)
    }

    @Test("Inside a terminated tunnel, a path outside the prefix goes to the real origin over verified TLS")
    func passThroughInsideTunnel() async throws {
        let pki = try OriginCertificates()
        let origin = try await TestOrigin.start(tls: try pki.serverContext())
        var configuration = ProxyConfiguration(
            interceptPrefixes: [try InterceptPrefix("https://localhost:\(origin.port)/sso/")],
            certificateAuthority: authority)
        configuration.originTrust = .certificates([pki.root])
        try await withProxy(configuration, interceptor: RecordingInterceptor.redirecting(to: "/next")) { proxy in
            try await withProxiedClient(proxyPort: proxy.port, roots: [try authorityRoot]) { client in
                let answer = try await fetch(client, HTTPClientRequest(url: "https://localhost:\(origin.port)/app?y=2"))
                #expect(answer.status == 200)
                #expect(answer.body == "origin answer")
            }
        }
        let seen = try #require(origin.requests.first)
        #expect(seen.uri == "/app?y=2")
        #expect(seen.values("host") == ["localhost:\(origin.port)"])
        #expect(seen.values("via") == ["1.1 ssokit"])
        await origin.stop()
    }

    @Test("An origin whose certificate the proxy does not trust gets the browser 502 origin_failed")
    func untrustedOriginRefused() async throws {
        let origin = try await TestOrigin.start(tls: try OriginCertificates().serverContext())
        var configuration = ProxyConfiguration(
            interceptPrefixes: [try InterceptPrefix("https://localhost:\(origin.port)/sso/")],
            certificateAuthority: authority)
        configuration.originTrust = .certificates([try OriginCertificates().root])
        try await withProxy(configuration, interceptor: RecordingInterceptor.redirecting(to: "/next")) { proxy in
            try await withProxiedClient(proxyPort: proxy.port, roots: [try authorityRoot]) { client in
                let answer = try await fetch(client, HTTPClientRequest(url: "https://localhost:\(origin.port)/app"))
                #expect(answer.status == 502)
                #expect(answer.body.hasPrefix("origin_failed"))
            }
        }
        #expect(origin.requests.isEmpty)
        await origin.stop()
    }

    @Test("Inside a terminated tunnel, a request naming another host gets 421 misdirected_request")
    func misdirectedInsideTunnel() async throws {
        let configuration = ProxyConfiguration(
            interceptPrefixes: [try InterceptPrefix("https://idp.example.test/sso/")], certificateAuthority: authority)
        let interceptor = RecordingInterceptor.redirecting(to: "/next")
        let result = try await withProxy(configuration, interceptor: interceptor) { proxy in
            try await RawClient.tunnelTLS(
                proxyPort: proxy.port, target: "idp.example.test:443", serverName: "idp.example.test",
                roots: [try authorityRoot], request: "GET /sso/x HTTP/1.1\r\nHost: bank.example.test\r\n\r\n")
        }
        #expect(result.response.hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"))
        #expect(interceptor.requests.isEmpty)
    }

    @Test("CONNECT to a host outside the prefixes is a blind tunnel: the client sees the origin's own certificate")
    func blindTunnel() async throws {
        let pki = try OriginCertificates()
        let origin = try await TestOrigin.start(tls: try pki.serverContext())
        var configuration = ProxyConfiguration(
            interceptPrefixes: [try InterceptPrefix("https://idp.example.test/sso/")], certificateAuthority: authority)
        configuration.allowedPorts = [origin.port]
        let result = try await withProxy(configuration, interceptor: RecordingInterceptor.redirecting(to: "/next")) {
            proxy in
            try await RawClient.tunnelTLS(
                proxyPort: proxy.port, target: "127.0.0.1:\(origin.port)", serverName: "localhost",
                roots: [try pki.nioRoot],
                request: "GET /tunnelled HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        }
        #expect(result.connect.hasPrefix("HTTP/1.1 200 "))
        #expect(result.peer == pki.server)
        #expect(result.response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(result.response.hasSuffix("origin answer"))
        let seen = try #require(origin.requests.first)
        #expect(seen.uri == "/tunnelled")
        #expect(seen.values("via").isEmpty)
        await origin.stop()
    }
}
