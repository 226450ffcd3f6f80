import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import SSOKitCore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Serves an ``AppAPI`` the way `ssokit serve` does: on a Unix domain socket (mode 0600), TCP with mutual TLS, or
/// plain TCP on loopback,
/// with slow clients timed out (``AppAPIServerConfiguration/requestTimeout``), a reload on SIGHUP, and on SIGTERM
/// or SIGINT a graceful shutdown: the listener closes, requests in flight finish, then `run` returns.
public enum AppAPIServer {
    /// Serves until SIGTERM or SIGINT. `services` run beside the server (an intercepting proxy) and stop after it;
    /// `reload` runs on each SIGHUP; `onReady` gets the address (`unix:PATH` or `http://HOST:PORT`) once listening.
    public static func run(
        _ api: AppAPI<AppAPIRequestContext>, configuration: AppAPIServerConfiguration, services: [any Service] = [],
        reload: (@Sendable () async -> Void)? = nil, logger: Logger, onReady: @escaping @Sendable (String) -> Void
    ) async throws(ServeError) {
        guard configuration.requestTimeout > .zero else {
            throw ServeError(.invalidListener, "the request timeout must be positive")
        }
        let address: BindAddress
        let socketPath: String?
        var claim: UnixSocketFile.Claim?
        var tls: MutualTLS?
        switch configuration.listener {
        case .unixSocket(let path):
            claim = try UnixSocketFile.prepare(path)
            address = .unixDomainSocket(path: path)
            socketPath = path
        case .insecureLoopback(let host, let port):
            socketPath = nil
            guard EndpointSecurity.isLoopback(host: host), (0...65535).contains(port) else {
                throw ServeError(.invalidListener, "plain TCP is served on a loopback address only")
            }
            address = .hostname(host, port: port)
        case .mutualTLS(let host, let port, let mutualTLS):
            guard (0...65535).contains(port) else { throw ServeError(.invalidListener, "the port is out of range") }
            socketPath = nil
            address = .hostname(host, port: port)
            tls = mutualTLS
        }
        let router = Router(context: AppAPIRequestContext.self)
        api.addRoutes(to: router)
        let limit = TimeAmount(configuration.requestTimeout)
        let secure = tls != nil
        let permissions = socketPath.map { UnixSocketFile.RestrictedCreation(path: $0) }
        let socketClaim = claim
        guard configuration.maximumConnections > 0, configuration.maximumConnectionsPerPeer > 0,
            configuration.tlsHandshakeTimeout > .zero
        else { throw ServeError(.invalidListener, "the connection caps and the handshake timeout must be positive") }
        let limiter = ConnectionLimiter(
            total: configuration.maximumConnections, perPeer: configuration.maximumConnectionsPerPeer)
        let handshakeLimit = tls == nil ? nil : TimeAmount(configuration.tlsHandshakeTimeout)
        var server = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [
                    limiter.handler(), RequestDeadlineHandler(limit: limit), ConnectionCloseHandler.Installer(),
                ] + (handshakeLimit.map { [HandshakeDeadlineHandler(limit: $0)] } ?? []),
                idleTimeout: limit))
        if let tls {
            do {
                server = try .tls(server, tlsConfiguration: tls.configuration)
            } catch {
                throw ServeError(.invalidTLS, "the TLS configuration was refused")
            }
        }
        let application = Application(
            router: router, server: server,
            configuration: ApplicationConfiguration(address: address, serverName: nil),
            onServerRunning: { channel in
                permissions?.finish()
                socketClaim?.recordBound()
                onReady(Self.name(channel.localAddress, socketPath: socketPath, secure: secure))
            }, logger: logger)
        var all = services
        if let reload { all.append(SignalReloadService(reload: reload)) }
        // The last service stops first: the listener closes and its requests finish before the proxy stops.
        all.append(application)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: all, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        permissions?.begin()
        defer {
            permissions?.finish()
            socketClaim?.release()
        }
        do {
            try await group.run()
        } catch {
            throw ServeError(.listenFailed, "the server stopped: \(String(describing: type(of: error)))")
        }
    }

    private static func name(_ address: SocketAddress?, socketPath: String?, secure: Bool) -> String {
        if let socketPath { return "unix:" + socketPath }
        guard let address, let ip = address.ipAddress, let port = address.port else { return "unknown" }
        return (secure ? "https://" : "http://") + (ip.contains(":") ? "[\(ip)]" : ip) + ":\(port)"
    }
}
