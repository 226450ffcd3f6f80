import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Opens connections from the proxy to origins and tunnel targets, on the browser connection's own event loop so
/// that both sides of an exchange run on one thread. Every such connection has a connect timeout and closes when
/// idle.
enum OriginConnector {
    /// An HTTP/1.1 connection to `origin` (TLS for https, verified with `shared`'s origin trust), ending in
    /// `relay`.
    static func connectHTTP(
        to origin: ProxyOrigin, relay: OriginRelayHandler, shared: ProxyShared, on loop: any EventLoop
    ) -> EventLoopFuture<any Channel> {
        let tls = origin.scheme == "https" ? shared.originTLS : nil
        let serverName = ProxyHostName.isIPAddress(origin.host) ? nil : origin.host
        let headerBytes = shared.limits.maximumOriginHeaderBytes
        return connect(host: origin.host, port: origin.port, last: relay, limits: shared.limits, on: loop) { pipeline in
            if let tls { try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName)) }
            var encoding = HTTPRequestEncoder.Configuration()
            encoding.automaticallySetFramingHeaders = false
            var decoding = NIOHTTPDecoderLimitConfiguration()
            decoding.maxHeaderFieldSize = headerBytes
            decoding.maxHeaderListSize = headerBytes
            try pipeline.addHandler(HTTPRequestEncoder(configuration: encoding))
            try pipeline.addHandler(
                ByteToMessageHandler(
                    HTTPResponseDecoder(
                        leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward,
                        limitConfiguration: decoding)))
        }
    }

    /// A raw TCP connection to `host:port` for a blind tunnel, ending in `relay`.
    static func connectTunnel(
        host: String, port: Int, relay: TunnelRelay, limits: ProxyLimits, on loop: any EventLoop
    ) -> EventLoopFuture<any Channel> {
        connect(host: host, port: port, last: relay, limits: limits, on: loop) { _ in }
    }

    /// The browser's answer when a connection could not be opened.
    static func rejection(for error: any Error) -> ProxyRejection {
        if let error = error as? ChannelError, case .connectTimeout = error { return .originTimeout }
        return .originUnreachable
    }

    /// Connects with `configure`'s handlers, then an idle timer, then `last`.
    private static func connect(
        host: String, port: Int, last: some ChannelHandler, limits: ProxyLimits, on loop: any EventLoop,
        configure: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void
    ) -> EventLoopFuture<any Channel> {
        let boundLast = NIOLoopBound(last, eventLoop: loop)
        return ClientBootstrap(group: loop)
            .connectTimeout(TimeAmount(limits.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try configure(pipeline)
                    try pipeline.addHandler(IdleStateHandler(allTimeout: TimeAmount(limits.idleTimeout)))
                    try pipeline.addHandler(boundLast.value)
                }
            }
            .connect(host: host, port: port)
    }
}
