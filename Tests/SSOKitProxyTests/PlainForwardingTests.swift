import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import SSOKitProxy
import Testing

/// Plain-http requests through the proxy: everything outside the prefixes reaches the origin untouched (minus
/// hop-by-hop fields, plus Via), everything under them goes to the interceptor.
@Suite("Plain http through the proxy")
struct PlainForwardingTests {
    @Test("A request outside the prefixes reaches the origin with its target, fields and body, and comes back")
    func passThrough() async throws {
        let origin = try await TestOrigin.start { request in
            OriginAnswer(
                status: .created, headers: [("X-Origin", "yes")], body: Array("echo:".utf8) + request.body,
                chunked: true)
        }
        let interceptor = RecordingInterceptor.redirecting(to: "https://unused.example/")
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        try await withProxy(ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor) { proxy in
            try await withProxiedClient(proxyPort: proxy.port) { client in
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(origin.port)/app/page?q=1&r=%2F")
                request.method = .POST
                request.headers.add(name: "X-Custom", value: "kept")
                let payload = String(repeating: "p", count: 200_000)
                request.body = .bytes(ByteBuffer(string: payload))
                let answer = try await fetch(client, request)
                #expect(answer.status == 201)
                #expect(answer.body == "echo:" + payload)
                #expect(answer.headers["X-Origin"] == ["yes"])
                #expect(answer.headers["Via"] == ["1.1 ssokit"])
            }
        }
        let seen = try #require(origin.requests.first)
        #expect(seen.uri == "/app/page?q=1&r=%2F")
        #expect(seen.values("host") == ["127.0.0.1:\(origin.port)"])
        #expect(seen.values("x-custom") == ["kept"])
        #expect(seen.values("via") == ["1.1 ssokit"])
        #expect(seen.body.count == 200_000)
        #expect(interceptor.requests.isEmpty)
        await origin.stop()
    }

    @Test("An absolute-form request, as browsers send plain http to a proxy, streams a large body both ways")
    func absoluteFormStreams() async throws {
        let origin = try await TestOrigin.start { request in OriginAnswer(body: request.body.reversed(), chunked: true)
        }
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        let payload = String(repeating: "0123456789", count: 20_000)
        let response = try await withProxy(
            ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: RecordingInterceptor { _ in .passThrough }
        ) { proxy in
            try await RawClient.exchange(
                "PUT http://127.0.0.1:\(origin.port)/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + "Content-Length: \(payload.utf8.count)\r\n\r\n\(payload)", port: proxy.port)
        }
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains("Transfer-Encoding: chunked\r\n"))
        let seen = try #require(origin.requests.first)
        #expect(seen.method == "PUT")
        #expect(seen.body == Array(payload.utf8))
        #expect(seen.values("content-length") == ["200000"])
        await origin.stop()
    }

    @Test("Hop-by-hop fields (RFC 9110 §7.6.1) and proxy credentials never reach the origin; Host is the target's")
    func hopByHopFieldsRemoved() async throws {
        let origin = try await TestOrigin.start()
        let interceptor = RecordingInterceptor.redirecting(to: "https://unused.example/")
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        let response = try await withProxy(ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor) {
            proxy in
            try await RawClient.exchange(
                "GET http://127.0.0.1:\(origin.port)/app HTTP/1.1\r\nHost: wrong.example\r\n"
                    + "Connection: close, X-Hop\r\nX-Hop: secret\r\nKeep-Alive: timeout=5\r\n"
                    + "Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic dXNlcjpwYXNz\r\nTE: trailers\r\n"
                    + "Upgrade: h2c\r\nX-End: kept\r\n\r\n", port: proxy.port)
        }
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains("Connection: close\r\n"))
        #expect(response.hasSuffix("origin answer"))
        let seen = try #require(origin.requests.first)
        for name in ["x-hop", "keep-alive", "proxy-connection", "proxy-authorization", "te", "upgrade"] {
            #expect(seen.values(name).isEmpty, "\(name) reached the origin")
        }
        #expect(seen.values("host") == ["127.0.0.1:\(origin.port)"])
        #expect(seen.values("x-end") == ["kept"])
        await origin.stop()
    }

    @Test("A request under a prefix gets the interceptor's compact 302 and never reaches the origin")
    func interceptionAnswers302() async throws {
        let origin = try await TestOrigin.start()
        let interceptor = RecordingInterceptor.redirecting(to: "https://idp.example/authorize?state=s")
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        try await withProxy(ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor) { proxy in
            try await withProxiedClient(proxyPort: proxy.port) { client in
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(origin.port)/sso/login?x=1")
                request.headers.add(name: "Cookie", value: "session=abc")
                let answer = try await fetch(client, request)
                #expect(answer.status == 302)
                #expect(answer.headers["Location"] == ["https://idp.example/authorize?state=s"])
                #expect(answer.headers["Content-Length"] == ["0"])
            }
        }
        #expect(origin.requests.isEmpty)
        let seen = try #require(interceptor.requests.first)
        #expect(seen.request.method == .get)
        #expect(seen.request.scheme == "http")
        #expect(seen.request.authority == "127.0.0.1:\(origin.port)")
        #expect(seen.request.path == "/sso/login?x=1")
        #expect(seen.request.headerFields[.cookie] == "session=abc")
        #expect(seen.request.headerFields[.connection] == nil)
        #expect(seen.prefix == prefix)
        #expect(!seen.arrivedThroughTLSInterception)
        await origin.stop()
    }

    @Test("An intercepted body is read whole; a pass-through decision forwards it to the origin with its length")
    func passThroughDecisionForwardsBufferedBody() async throws {
        let origin = try await TestOrigin.start()
        let interceptor = RecordingInterceptor { _ in .passThrough }
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        try await withProxy(ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor) { proxy in
            try await withProxiedClient(proxyPort: proxy.port) { client in
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(origin.port)/sso/acs")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: "SAMLResponse=abc&RelayState=r"))
                let answer = try await fetch(client, request)
                #expect(answer.status == 200)
                #expect(answer.body == "origin answer")
            }
        }
        #expect(
            interceptor.requests.first.map { String(decoding: $0.body, as: UTF8.self) }
                == "SAMLResponse=abc&RelayState=r")
        let seen = try #require(origin.requests.first)
        #expect(String(decoding: seen.body, as: UTF8.self) == "SAMLResponse=abc&RelayState=r")
        #expect(seen.values("content-length") == ["29"])
        await origin.stop()
    }

    @Test("Pipelined requests on one connection are answered in order, intercepted and forwarded alike, HEAD too")
    func pipelinedRequestsInOrder() async throws {
        let origin = try await TestOrigin.start()
        let interceptor = RecordingInterceptor { _ in
            .respond(HTTPResponse(status: .ok), body: Array("intercepted".utf8))
        }
        let prefix = try InterceptPrefix("http://127.0.0.1:\(origin.port)/sso/")
        let authority = "127.0.0.1:\(origin.port)"
        let response = try await withProxy(ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor) {
            proxy in
            try await RawClient.exchange(
                "GET http://\(authority)/sso/a HTTP/1.1\r\nHost: \(authority)\r\n\r\n"
                    + "HEAD http://\(authority)/app HTTP/1.1\r\nHost: \(authority)\r\n\r\n"
                    + "GET http://\(authority)/app HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n\r\n",
                port: proxy.port)
        }
        let answers = response.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
        #expect(answers.count == 3)
        #expect(answers.first?.hasSuffix("intercepted") == true)
        #expect(answers.dropFirst().first?.contains("Content-Length: 13\r\n") == true)
        #expect(answers.dropFirst().first?.hasSuffix("\r\n\r\n") == true)
        #expect(answers.last?.hasSuffix("origin answer") == true)
        #expect(origin.requests.map(\.method) == ["HEAD", "GET"])
        await origin.stop()
    }
}
