import Foundation
import Hummingbird
import Logging
import NIOCore
import SSOKitCore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// A small but real OpenID Provider and SAML 2.0 identity provider for development, demos and tests.
///
/// OIDC: discovery, JWKS, the authorization code flow with PKCE (S256 only) behind a login form and a session
/// cookie, refresh-token rotation with reuse detection, `client_secret_basic`/`_post` and `private_key_jwt`,
/// UserInfo, revocation (RFC 7009), RP-Initiated Logout and RFC 9207 `iss`. SAML: metadata, SSO on the redirect and
/// POST bindings (signed AuthnRequests checked), signed (and optionally encrypted) Responses by auto-post, and SLO.
///
/// ```swift
/// let idp = try DevIdentityProvider(configuration: .init(
///     keys: try DevIdPSigningKeys.generate(), users: [try DevIdPUser.demo(password: password)]))
/// let issuer = try await idp.start()        // http://127.0.0.1:PORT, also the SAML metadata's base
/// // ... drive a login ...
/// await idp.shutdown()
/// ```
///
/// For development only: it speaks plain HTTP, keeps its state in memory and binds to loopback unless told
/// otherwise.
public final class DevIdentityProvider: Sendable {
    /// The configuration, as validated.
    public let configuration: DevIdPConfiguration
    private let users: [String: DevIdPUser]
    private let clients: [String: OIDCClientRegistration]
    private let serviceProviders: [String: SAMLServiceProviderRegistration]
    private let stores = DevIdPStores()
    private let state = Mutex<State>(.idle)

    private enum State: Sendable {
        case idle
        case starting
        case running(Running)
    }

    private struct Running: Sendable {
        let group: ServiceGroup
        let task: Task<Void, any Error>
        let baseURL: URL
    }

    private var running: Running? {
        state.withLock { value in
            guard case .running(let running) = value else { return nil }
            return running
        }
    }

    /// Validates `configuration` (see ``DevIdPError/Code/invalidConfiguration`` and
    /// ``DevIdPError/Code/remoteHostNotAllowed``).
    public init(configuration: DevIdPConfiguration) throws(DevIdPError) {
        try DevIdPConfigurationCheck.check(configuration)
        self.configuration = configuration
        users = Dictionary(configuration.users.map { ($0.username, $0) }) { first, _ in first }
        clients = Dictionary(configuration.clients.map { ($0.clientID, $0) }) { first, _ in first }
        serviceProviders = Dictionary(configuration.serviceProviders.map { ($0.entityID, $0) }) { first, _ in first }
    }

    /// The base URL while the server runs.
    public var baseURL: URL? { running?.baseURL }

    /// Binds and serves in the background; returns the base URL (the OIDC issuer) once the server listens.
    public func start() async throws(DevIdPError) -> URL {
        try await launch(signals: [])
    }

    /// Serves until SIGTERM or SIGINT (or ``shutdown()``), calling `onReady` with the base URL once listening.
    public func run(onReady: @Sendable (URL) -> Void) async throws(DevIdPError) {
        let url = try await launch(signals: [.sigterm, .sigint])
        onReady(url)
        guard let task = running?.task else { return }
        do {
            try await task.value
        } catch {
            throw DevIdPError(.bindFailed, "the server stopped: \(error)")
        }
    }

    /// Stops serving: open requests finish, then the listener closes. Does nothing when not running.
    public func shutdown() async {
        guard
            let current = state.withLock({ value -> Running? in
                guard case .running(let running) = value else { return nil }
                value = .idle
                return running
            })
        else { return }
        await current.group.triggerGracefulShutdown()
        _ = await current.task.result
    }

    private func launch(signals: [UnixSignal]) async throws(DevIdPError) -> URL {
        let idle = state.withLock { value in
            guard case .idle = value else { return false }
            value = .starting
            return true
        }
        guard idle else { throw DevIdPError(.bindFailed, "the server is already running") }
        do {
            let running = try await listen(signals: signals)
            state.withLock { $0 = .running(running) }
            return running.baseURL
        } catch {
            state.withLock { $0 = .idle }
            throw error
        }
    }

    private func listen(signals: [UnixSignal]) async throws(DevIdPError) -> Running {
        let signer = try await IDTokenSigner(keys: configuration.keys)
        let slot = EndpointsSlot()
        let quiet = Logger(label: "ssokit.dev-idp", factory: { _ in SwiftLogNoOpLogHandler() })
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: DevIdPRouter.make(slot, log: configuration.requestLog),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: quiet)
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: signals, logger: quiet))
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var bound: Int?
        for await port in ports { bound = port }
        guard let port = bound, port > 0 else {
            let failure = await task.result
            if case .failure(let error) = failure {
                throw DevIdPError(.bindFailed, "cannot listen on \(configuration.host):\(configuration.port): \(error)")
            }
            throw DevIdPError(.bindFailed, "the server stopped before it listened")
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let site = SiteURLs(base: "http://\(host):\(port)")
        guard let url = URL(string: site.base) else {
            await group.triggerGracefulShutdown()
            throw DevIdPError(.invalidConfiguration, "the host does not form a URL")
        }
        slot.fill(
            DevIdPEndpoints(
                site: site, configuration: configuration, users: users, clients: clients,
                serviceProviders: serviceProviders, idTokens: signer, stores: stores))
        return Running(group: group, task: task, baseURL: url)
    }
}
