import NIOCore
import NIOPosix
import SSOKitCore

/// A forward HTTP/1.1 proxy for browsers that hands requests under the intercept prefixes to a
/// ``ProxyInterceptor`` and passes every other request on untouched.
///
/// - Plain `http`: absolute-form requests (`GET http://host/path`).
/// - `https`: a CONNECT to the origin of an `https` prefix is answered by TLS with a leaf certificate from the
///   ``LocalCertificateAuthority``, after which the requests inside are routed like plain ones (forwarded to the
///   real origin over verified TLS when they fall outside the prefixes). A CONNECT to any other host is a blind
///   tunnel: bytes relayed both ways, never decrypted.
/// - Forwarded messages lose their hop-by-hop fields (RFC 9110 §7.6.1) and gain `Via: 1.1 ssokit` (§7.6.3);
///   bodies stream with backpressure; one origin connection serves one exchange.
/// - Refusals are answered by the proxy itself with a status and a snake_case code in a `text/plain` body:
///   400 `malformed_request`/`not_a_proxy_request`, 403 `client_not_permitted`/`port_not_allowed`, 408 `request_timeout`,
///   413 `body_too_large`, 421 `misdirected_request`, 431 `header_too_large`, 502 `origin_unreachable`/
///   `origin_failed`/`certificate_unavailable`, 504 `origin_timeout`/`decision_timeout`.
public final class InterceptingProxy: Sendable {
    private let channel: any Channel
    private let connections: ConnectionRegistry
    private let shared: ProxyShared

    /// The port the proxy listens on.
    public let port: Int
    /// The address the proxy listens on.
    public let host: String

    private init(
        channel: any Channel, connections: ConnectionRegistry, shared: ProxyShared, host: String, port: Int
    ) {
        self.channel = channel
        self.connections = connections
        self.shared = shared
        self.host = host
        self.port = port
    }

    /// Starts listening.
    ///
    /// - Throws: ``ProxyError/Code-swift.struct/invalidConfiguration`` for a non-loopback address without
    ///   ``ProxyConfiguration/insecureListenBeyondLoopback``, an https prefix without a certificate authority or one
    ///   whose name constraints exclude it, or limits that are not positive;
    ///   ``ProxyError/Code-swift.struct/listenFailed`` when the address cannot be bound.
    public static func start(
        configuration: ProxyConfiguration, interceptor: some ProxyInterceptor,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(ProxyError) -> InterceptingProxy {
        try validate(configuration)
        let shared = try ProxyShared(configuration: configuration, interceptor: interceptor)
        let connections = ConnectionRegistry(capacity: configuration.limits.maximumConnections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard connections.admit(channel) else { return channel.close() }
                // Nothing is read until the host has decided whether it serves this client.
                return ClientAdmissionCheck.decide(for: channel, shared: shared).flatMapThrowing { admitted in
                    let codec = ServerCodec(limits: shared.limits)
                    try codec.add(to: channel.pipeline.syncOperations)
                    try channel.pipeline.syncOperations.addHandler(
                        ProxyConnectionHandler(shared: shared, codec: codec, clientAdmitted: admitted))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
            let port = channel.localAddress?.port ?? configuration.port
            return InterceptingProxy(
                channel: channel, connections: connections, shared: shared, host: configuration.host, port: port)
        } catch {
            throw ProxyError(.listenFailed, "the proxy could not listen on \(configuration.host):\(configuration.port)")
        }
    }

    /// Replaces what the proxy intercepts (a profile reload): the next request or CONNECT follows `prefixes`;
    /// exchanges and tunnels already under way finish as they started. `allowedPorts` replaces
    /// ``ProxyConfiguration/allowedPorts``.
    ///
    /// - Throws: ``ProxyError/Code-swift.struct/invalidConfiguration`` when an https prefix has no certificate
    ///   authority or one whose name constraints exclude its host; the running rules then stay.
    public func update(interceptPrefixes prefixes: [InterceptPrefix], allowedPorts: Set<Int>) throws(ProxyError) {
        try Self.checkAuthority(shared.authority, covers: prefixes)
        shared.replace(ProxyRouter(prefixes: prefixes, allowedPorts: allowedPorts))
    }

    /// How many browser connections are open.
    public var openConnections: Int { connections.count }

    /// Stops listening and closes every open connection.
    public func shutdown() async {
        try? await channel.close()
        connections.closeAll()
    }

    /// Returns when the listener has closed.
    public func waitUntilClosed() async {
        try? await channel.closeFuture.get()
    }

    private static func validate(_ configuration: ProxyConfiguration) throws(ProxyError) {
        guard configuration.insecureListenBeyondLoopback || EndpointSecurity.isLoopback(host: configuration.host)
        else {
            throw ProxyError(
                .invalidConfiguration,
                "the proxy listens on loopback unless insecureListenBeyondLoopback says otherwise")
        }
        let limits = configuration.limits
        let sizes = [
            limits.maximumHeaderBytes, limits.maximumOriginHeaderBytes, limits.maximumInterceptedBodyBytes,
            limits.maximumPendingForwardBytes, limits.maximumConnections, limits.maximumCachedLeaves,
        ]
        let durations = [
            limits.requestHeadTimeout, limits.admissionTimeout, limits.interceptedBodyTimeout, limits.decisionTimeout,
            limits.connectTimeout,
            limits.idleTimeout,
        ]
        guard sizes.allSatisfy({ $0 > 0 }), durations.allSatisfy({ $0 > .zero }) else {
            throw ProxyError(.invalidConfiguration, "every limit must be positive")
        }
        try checkAuthority(configuration.certificateAuthority, covers: configuration.interceptPrefixes)
    }

    /// Every https prefix needs `authority`, and its name constraints must permit the prefix's host.
    private static func checkAuthority(
        _ authority: LocalCertificateAuthority?, covers prefixes: [InterceptPrefix]
    ) throws(ProxyError) {
        for prefix in prefixes where prefix.origin.scheme == "https" {
            guard let authority else {
                throw ProxyError(.invalidConfiguration, "an https prefix needs a certificate authority")
            }
            guard authority.permits(host: prefix.origin.host) else {
                throw ProxyError(
                    .invalidConfiguration, "the certificate authority does not permit \(prefix.origin.host)")
            }
        }
    }
}
