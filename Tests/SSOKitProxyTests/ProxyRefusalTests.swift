import HTTPTypes
import NIOCore
import SSOKitProxy
import Testing

/// What the proxy refuses, and how: a status and a snake_case code, never a hang and never a crash.
@Suite("Proxy refusals")
struct ProxyRefusalTests {
    private func configuration(_ adjust: (inout ProxyConfiguration) -> Void = { _ in }) throws -> ProxyConfiguration {
        var configuration = ProxyConfiguration(interceptPrefixes: [try InterceptPrefix("http://127.0.0.1:1/sso/")])
        adjust(&configuration)
        return configuration
    }

    private func send(_ text: String, _ configuration: ProxyConfiguration, interceptor: RecordingInterceptor? = nil)
        async throws -> String
    {
        let interceptor = interceptor ?? RecordingInterceptor.redirecting(to: "https://idp.example/")
        return try await withProxy(configuration, interceptor: interceptor) { proxy in
            try await RawClient.exchange(text, port: proxy.port)
        }
    }

    @Test("A malformed request line gets 400 malformed_request")
    func malformedRequestLine() async throws {
        let response = try await send("GARBAGE\r\n\r\n", try configuration())
        #expect(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(response.hasSuffix("malformed_request: the request is not valid HTTP/1.1\n"))
    }

    @Test("A request in origin form to the proxy itself gets 400 not_a_proxy_request")
    func originFormRefused() async throws {
        let response = try await send("GET /app HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", try configuration())
        #expect(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(response.contains("not_a_proxy_request"))
    }

    @Test("A target with user info gets 400")
    func userInfoRefused() async throws {
        let response = try await send(
            "GET http://user:pass@127.0.0.1:1/sso/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", try configuration())
        #expect(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    }

    @Test("A request head over the cap gets 431 header_too_large")
    func oversizeHeaders() async throws {
        let configuration = try configuration { $0.limits.maximumHeaderBytes = 4096 }
        let response = try await send(
            "GET http://127.0.0.1:1/sso/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(String(repeating: "c", count: 5000))\r\n\r\n",
            configuration)
        #expect(response.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(response.contains("header_too_large"))
    }

    @Test("An intercepted body over the cap gets 413, whether its length is declared or it is chunked")
    func oversizeInterceptedBody() async throws {
        let configuration = try configuration { $0.limits.maximumInterceptedBodyBytes = 1024 }
        let interceptor = RecordingInterceptor.redirecting(to: "https://idp.example/")
        let declared = try await send(
            "POST http://127.0.0.1:1/sso/acs HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: 5000\r\n\r\n",
            configuration, interceptor: interceptor)
        #expect(declared.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"))
        let chunk = String(repeating: "b", count: 800)
        let chunked = try await send(
            "POST http://127.0.0.1:1/sso/acs HTTP/1.1\r\nHost: 127.0.0.1:1\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n", configuration, interceptor: interceptor)
        #expect(chunked.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"))
        #expect(chunked.contains("body_too_large"))
        #expect(interceptor.requests.isEmpty)
    }

    @Test("A port that is neither allowed nor a prefix's gets 403 port_not_allowed, for CONNECT and plain requests")
    func refusedPorts() async throws {
        let connect = try await send("CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n", try configuration())
        #expect(connect.hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
        #expect(connect.contains("port_not_allowed"))
        let plain = try await send(
            "GET http://127.0.0.1:25/ HTTP/1.1\r\nHost: 127.0.0.1:25\r\n\r\n", try configuration())
        #expect(plain.hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
    }

    @Test("An origin or tunnel target that refuses the connection gets 502 origin_unreachable")
    func unreachableOrigin() async throws {
        let port = try await closedPort()
        let configuration = try configuration { $0.allowedPorts = [port] }
        let plain = try await send(
            "GET http://127.0.0.1:\(port)/app HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", configuration)
        #expect(plain.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(plain.contains("origin_unreachable"))
        let tunnel = try await send(
            "CONNECT 127.0.0.1:\(port) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", configuration)
        #expect(tunnel.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        let unknown = try await send(
            "GET http://no-such-host.invalid/ HTTP/1.1\r\nHost: no-such-host.invalid\r\n\r\n", try self.configuration())
        #expect(unknown.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
    }

    @Test("A client that sends half a request head and stalls gets 408 request_timeout")
    func slowClientTimedOut() async throws {
        let configuration = try configuration { $0.limits.requestHeadTimeout = .seconds(1) }
        // Without the timer the proxy would wait for the rest of the head and the raw client would time out.
        let response = try await send("GET http://127.0.0.1:1/sso/ HTTP/1.1\r\nHost: 12", configuration)
        #expect(response.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(response.contains("request_timeout"))
    }

    @Test("A client that stops halfway through an intercepted body gets 408 request_timeout")
    func slowInterceptedBody() async throws {
        let configuration = try configuration { $0.limits.interceptedBodyTimeout = .milliseconds(500) }
        let response = try await send(
            "POST http://127.0.0.1:1/sso/acs HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: 100\r\n\r\nSAMLResponse=",
            configuration)
        #expect(response.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
    }

    @Test("An origin that accepts and never answers gets the browser 504 origin_timeout once the exchange idles")
    func silentOrigin() async throws {
        let origin = try await MuteOrigin.start(closeAtOnce: false)
        let configuration = try configuration {
            $0.allowedPorts = [origin.port]
            $0.limits.idleTimeout = .milliseconds(500)
        }
        let response = try await send(
            "GET http://127.0.0.1:\(origin.port)/app HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", configuration)
        #expect(response.hasPrefix("HTTP/1.1 504 Gateway Timeout\r\n"))
        #expect(response.contains("origin_timeout"))
        await origin.stop()
    }

    @Test("An origin that closes before answering gets the browser 502 origin_failed")
    func originClosesEarly() async throws {
        let origin = try await MuteOrigin.start(closeAtOnce: true)
        let configuration = try configuration { $0.allowedPorts = [origin.port] }
        let response = try await send(
            "GET http://127.0.0.1:\(origin.port)/app HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", configuration)
        #expect(response.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(response.contains("origin_failed"))
        await origin.stop()
    }

    @Test("A blind tunnel that carries nothing closes once idle")
    func idleTunnelCloses() async throws {
        let origin = try await MuteOrigin.start(closeAtOnce: false)
        let configuration = try configuration {
            $0.allowedPorts = [origin.port]
            $0.limits.idleTimeout = .milliseconds(500)
        }
        // The mute origin never closes: only the idle timer ends the tunnel before the raw client times out.
        let response = try await send(
            "CONNECT 127.0.0.1:\(origin.port) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", configuration)
        #expect(response == "HTTP/1.1 200 OK\r\n\r\n")
        await origin.stop()
    }

    @Test("An interceptor that does not decide in time leaves the browser with 504 decision_timeout")
    func decisionTimeout() async throws {
        let configuration = try configuration { $0.limits.decisionTimeout = .milliseconds(300) }
        let interceptor = RecordingInterceptor { _ in
            try? await Task.sleep(for: .seconds(5))
            return .passThrough
        }
        let response = try await send(
            "GET http://127.0.0.1:1/sso/ HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n", configuration, interceptor: interceptor
        )
        #expect(response.hasPrefix("HTTP/1.1 504 Gateway Timeout\r\n"))
        #expect(response.contains("decision_timeout"))
    }

    @Test("Connections over the cap are closed as soon as they are accepted")
    func connectionCap() async throws {
        let configuration = try configuration { $0.limits.maximumConnections = 1 }
        try await withProxy(configuration, interceptor: RecordingInterceptor.redirecting(to: "https://idp.example/")) {
            proxy in
            let first = try await RawClient.connect(port: proxy.port)
            try await first.channel.executeThenClose { _, outbound in
                try await outbound.write(.init(string: "GET http://127.0.0.1:1/sso/ HTTP/1.1\r\n"))
                let second = try await RawClient.exchange(
                    "GET http://127.0.0.1:1/sso/ HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n", port: proxy.port)
                #expect(second.isEmpty)
            }
        }
    }

    @Test("The proxy refuses to listen beyond loopback unless the opt-out is named")
    func loopbackOnly() async throws {
        var configuration = try configuration()
        configuration.host = "0.0.0.0"
        await #expect(throws: ProxyError(.invalidConfiguration, "")) {
            try await InterceptingProxy.start(
                configuration: configuration, interceptor: RecordingInterceptor.redirecting(to: "https://a.example/"))
        }
    }

    @Test("An https prefix without a certificate authority, or outside its name constraints, is refused at start")
    func httpsPrefixNeedsAuthority() async throws {
        let interceptor = RecordingInterceptor.redirecting(to: "https://a.example/")
        let prefix = try InterceptPrefix("https://idp.example.test/sso/")
        await #expect(throws: ProxyError(.invalidConfiguration, "")) {
            try await InterceptingProxy.start(
                configuration: ProxyConfiguration(interceptPrefixes: [prefix]), interceptor: interceptor)
        }
        let authority = try LocalCertificateAuthority.create(permittedHosts: ["other.example.test"])
        await #expect(throws: ProxyError(.invalidConfiguration, "")) {
            try await InterceptingProxy.start(
                configuration: ProxyConfiguration(interceptPrefixes: [prefix], certificateAuthority: authority),
                interceptor: interceptor)
        }
    }
}
