import HTTPTypes
import SSOKitProxy
import Synchronization
import Testing

/// An admission hook that records the connections it is asked about and answers with a closure.
final class RecordingAdmission: ProxyClientAdmission {
    private let seen = Mutex<[ProxyClientConnection]>([])
    private let answer: @Sendable (ProxyClientConnection) async -> Bool

    init(_ answer: @escaping @Sendable (ProxyClientConnection) async -> Bool) { self.answer = answer }

    var connections: [ProxyClientConnection] { seen.withLock { $0 } }

    func admits(_ connection: ProxyClientConnection) async -> Bool {
        seen.withLock { $0.append(connection) }
        return await answer(connection)
    }
}

/// The host's client-admission hook: a refused client gets 403 `client_not_permitted` for every request (intercepted,
/// passed through or CONNECT) and the interceptor never sees it; an admitted one is served as before.
@Suite("Proxy client admission")
struct ClientAdmissionTests {
    private func configuration(_ admission: RecordingAdmission) throws -> ProxyConfiguration {
        var configuration = ProxyConfiguration(interceptPrefixes: [try InterceptPrefix("http://127.0.0.1:1/sso/")])
        configuration.clientAdmission = admission
        // Only the timeout test below is about time: a loaded machine must not turn a slow "yes" into a refusal.
        configuration.limits.admissionTimeout = .seconds(120)
        return configuration
    }

    @Test("A refused client gets 403 client_not_permitted for every kind of request; the interceptor sees nothing")
    func refusedClient() async throws {
        let admission = RecordingAdmission { _ in false }
        let interceptor = RecordingInterceptor.redirecting(to: "https://idp.example/")
        try await withProxy(try configuration(admission), interceptor: interceptor) { proxy in
            for request in [
                "GET http://127.0.0.1:1/sso/authorize HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n",
                "GET http://127.0.0.1:80/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n",
            ] {
                let response = try await RawClient.exchange(request, port: proxy.port)
                #expect(response.hasPrefix("HTTP/1.1 403 Forbidden\r\n"), "\(response)")
                #expect(response.contains("client_not_permitted"))
            }
            let asked = admission.connections
            #expect(asked.count == 3)
            #expect(asked.allSatisfy { $0.clientHost == "127.0.0.1" && $0.proxyPort == proxy.port })
            #expect(asked.allSatisfy { $0.clientPort != proxy.port && $0.clientPort > 0 })
        }
        #expect(interceptor.requests.isEmpty)
    }

    @Test("An admitted client is served: the interceptor answers")
    func admittedClient() async throws {
        let admission = RecordingAdmission { _ in true }
        let interceptor = RecordingInterceptor.redirecting(to: "https://idp.example/")
        let response = try await withProxy(try configuration(admission), interceptor: interceptor) { proxy in
            try await RawClient.exchange(
                "GET http://127.0.0.1:1/sso/authorize HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n",
                port: proxy.port)
        }
        #expect(response.hasPrefix("HTTP/1.1 302 Found\r\n"), "\(response)")
        #expect(interceptor.requests.count == 1)
        #expect(admission.connections.count == 1)
    }

    @Test("A hook that does not answer within the admission timeout refuses the client")
    func silentHookRefuses() async throws {
        let admission = RecordingAdmission { _ in
            try? await Task.sleep(for: .seconds(30))
            return true
        }
        var configuration = try configuration(admission)
        configuration.limits.admissionTimeout = .milliseconds(200)
        let interceptor = RecordingInterceptor.redirecting(to: "https://idp.example/")
        let response = try await withProxy(configuration, interceptor: interceptor) { proxy in
            try await RawClient.exchange(
                "GET http://127.0.0.1:1/sso/authorize HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n", port: proxy.port,
                timeout: .seconds(10))
        }
        #expect(response.contains("client_not_permitted"), "\(response)")
        #expect(interceptor.requests.isEmpty)
    }
}
