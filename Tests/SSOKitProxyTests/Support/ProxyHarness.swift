import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SSOKitProxy
import Synchronization

/// An interceptor that records what it is given and answers with a closure.
final class RecordingInterceptor: ProxyInterceptor {
    private let seen = Mutex<[InterceptedRequest]>([])
    private let decide: @Sendable (InterceptedRequest) async -> InterceptionDecision

    init(_ decide: @escaping @Sendable (InterceptedRequest) async -> InterceptionDecision) {
        self.decide = decide
    }

    /// Answers every request with a 302 to `location`.
    static func redirecting(to location: String) -> RecordingInterceptor {
        RecordingInterceptor { _ in
            var response = HTTPResponse(status: .found)
            response.headerFields[.location] = location
            response.headerFields[.cacheControl] = "no-store"
            return .respond(response)
        }
    }

    var requests: [InterceptedRequest] { seen.withLock { $0 } }

    func intercept(_ request: InterceptedRequest) async -> InterceptionDecision {
        seen.withLock { $0.append(request) }
        return await decide(request)
    }
}

/// Starts a proxy for the length of `body` and shuts it down after, whatever happens.
func withProxy<T>(
    _ configuration: ProxyConfiguration, interceptor: some ProxyInterceptor,
    _ body: (InterceptingProxy) async throws -> T
) async throws -> T {
    let proxy = try await InterceptingProxy.start(configuration: configuration, interceptor: interceptor)
    do {
        let result = try await body(proxy)
        await proxy.shutdown()
        return result
    } catch {
        await proxy.shutdown()
        throw error
    }
}

/// An AsyncHTTPClient that goes through the proxy on `proxyPort`, trusts only `roots` (the system's when nil) and
/// never follows redirects, for the length of `body`.
func withProxiedClient<T>(
    proxyPort: Int, roots: [NIOSSLCertificate]? = nil, _ body: (HTTPClient) async throws -> T
) async throws -> T {
    var tls = TLSConfiguration.makeClientConfiguration()
    if let roots { tls.trustRoots = .certificates(roots) }
    var configuration = HTTPClient.Configuration(
        tlsConfiguration: tls, redirectConfiguration: .disallow,
        timeout: .init(connect: .seconds(60), read: .seconds(60)),  // hang detectors, generous for a loaded machine
        proxy: .server(host: "127.0.0.1", port: proxyPort))
    configuration.httpVersion = .http1Only
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Sends `request` through `client` and returns the status, the headers and the body as text.
func fetch(_ client: HTTPClient, _ request: HTTPClientRequest) async throws -> (
    status: Int, headers: HTTPHeaders, body: String
) {
    let response = try await client.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    return (Int(response.status.code), response.headers, String(buffer: body))
}

/// A port on 127.0.0.1 where nothing listens (bound, then closed).
func closedPort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port ?? 1
    try await channel.close()
    return port
}
