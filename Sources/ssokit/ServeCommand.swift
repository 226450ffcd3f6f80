import ArgumentParser
import Foundation
import Logging
import Prometheus
import SSOKitCore
import SSOKitExtension
import SSOKitHummingbird
import SSOKitProxy
import SSOKitTokenCache

/// `ssokit serve`: the redirect-extension adapter as a service (CLI-CONTRACT.md). The app API on a Unix domain
/// socket, on TCP with mutual TLS, or on plain TCP on loopback with `--insecure-loopback`; `READY <address>` on stdout once listening; JSON-line
/// logs on stderr; SIGHUP reloads the profile, SIGTERM/SIGINT finish the requests in flight and exit 0.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the redirect-extension adapter as a service: the app API for native apps.")

    @Option(help: "The profile: a .mobileconfig (XML plist, signed or not) or JSON {\"PayloadContent\": [...]}.")
    var profile: String
    @Option(help: "A PEM file of trust anchors for a signed profile.")
    var trust: String?
    @Option(
        help: "The Unix domain socket to listen on (default: $XDG_RUNTIME_DIR/ssokit.sock, else in the cache folder).")
    var socket: String?
    @Option(help: "Listen on plain TCP on this loopback address instead (needs --port and --insecure-loopback).")
    var host: String?
    @Option(help: "The TCP port (0 = any free port).")
    var port: Int?
    @Option(name: .customLong("tls-cert"), help: "Mutual TLS on --host/--port: the server's certificate chain (PEM).")
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: "Mutual TLS: the server's private key (PEM, mode 0600).")
    var tlsKey: String?
    @Option(
        name: .customLong("client-ca"),
        help: "Mutual TLS: the CA certificates (PEM) that client certificates must chain to.")
    var clientCA: String?
    @Flag(
        name: .customLong("insecure-loopback"),
        help: "Allow plain TCP on loopback: any local process is the registry's \"loopback\" caller.")
    var insecureLoopback = false
    @Option(help: "The caller registry: JSON {\"uids\": {...}, \"certificates\": {...}, \"loopback\": [...]}.")
    var registry: String?
    @Option(
        name: .customLong("proxy-port"),
        help: "Also run the browser-intercepting proxy on 127.0.0.1:N (0 = any free port); GET /proxy.pac names it.")
    var proxyPort: Int?
    @Option(name: .customLong("request-timeout"), help: "Seconds a client may take to send one whole request.")
    var requestTimeout: Int = 30
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if socket != nil && (host != nil || port != nil) { throw ValidationError("--socket excludes --host/--port") }
        if (host == nil) != (port == nil) { throw ValidationError("--host and --port go together") }
        let tlsFiles = [tlsCert, tlsKey, clientCA].compactMap { $0 }.count
        if tlsFiles != 0 {
            guard tlsFiles == 3 else { throw ValidationError("--tls-cert, --tls-key and --client-ca go together") }
            guard host != nil else { throw ValidationError("mutual TLS needs --host and --port") }
            guard !insecureLoopback else { throw ValidationError("--insecure-loopback excludes mutual TLS") }
            guard registry != nil else {
                throw ValidationError("mutual TLS needs --registry (its \"certificates\" say who may act as what)")
            }
        } else if let host {
            guard insecureLoopback else {
                throw ValidationError(
                    "plain TCP needs mutual TLS (--tls-cert/--tls-key/--client-ca) or --insecure-loopback")
            }
            guard EndpointSecurity.isLoopback(host: host) else {
                throw ValidationError("--host \(host) is not a loopback address")
            }
        } else if insecureLoopback {
            throw ValidationError("--insecure-loopback needs --host and --port")
        }
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535") }
        if let proxyPort, !(0...65535).contains(proxyPort) { throw ValidationError("--proxy-port must be 0...65535") }
        guard (1...3600).contains(requestTimeout) else { throw ValidationError("--request-timeout must be 1...3600") }
    }

    func run() async throws {
        let logger = ServeLogging.bootstrap()
        try await CLIOutput.run {
            let clock = SystemClock()
            let (profile, trust) = (self.profile, self.trust)
            let catalog = try ProfileFile.catalog(profile, trust: trust, clock: clock)
            let listener = try listener()
            let callers = try callerRegistry(listener: listener, logger: logger)
            try await CacheContext.with(storeOptions, clock: clock) { context in
                try await HTTPSession.with { transport in
                    let prometheus = PrometheusCollectorRegistry()
                    let metrics = AppAPIMetrics(factory: PrometheusMetricsFactory(registry: prometheus))
                    let environment = ExtensionEnvironment(
                        tokenCache: context.cache, transport: MeteredTransport(transport, metrics: metrics),
                        clock: clock, rightStore: context.rights)
                    let slot = AdapterSlot(RedirectExtension(catalog: catalog, environment: environment))
                    let owners = InteractionOwners(cache: context.cache, clock: clock)
                    let proxy = try await startProxy(
                        catalog: catalog, slot: slot, owners: owners, callers: callers, key: context.key,
                        logger: logger)
                    let api = AppAPI<AppAPIRequestContext>(
                        adapter: slot, registry: callers, owners: owners, identification: .connection,
                        autoConfig: { proxy?.autoConfig }, metrics: metrics,
                        exposition: { prometheus.emitToString() })
                    var configuration = AppAPIServerConfiguration(listener: listener)
                    configuration.requestTimeout = .seconds(requestTimeout)
                    logger.info("starting", metadata: ["payloads": "\(catalog.payloads.count)"])
                    try await AppAPIServer.run(
                        api, configuration: configuration,
                        services: [CachePurgeService(cache: context.cache, logger: logger)]
                            + (proxy.map { [InterceptingProxyService($0.proxy)] } ?? []),
                        reload: {
                            await ProfileReload.run(slot: slot, logger: logger) {
                                let catalog = try ProfileFile.catalog(profile, trust: trust, clock: clock)
                                try proxy?.reload(catalog)
                                return RedirectExtension(catalog: catalog, environment: environment)
                            }
                        }, logger: logger,
                        onReady: { address in
                            // Unbuffered: whoever started the server waits for this line on a pipe.
                            FileHandle.standardOutput.write(Data("READY \(address)\n".utf8))
                        })
                    logger.info("stopped")
                }
            }
        }
    }

    /// With `--proxy-port`: the intercepting proxy for the profile's Redirect URLs, whose credentials questions
    /// are the extension's sign-in page, and its PAC file. https Redirect URLs need the local certificate authority
    /// (created on first start in the cache folder, its key sealed under the cache key), whose certificate the
    /// user trusts: its path and fingerprint are logged.
    private func startProxy(
        catalog: ProfileCatalog, slot: AdapterSlot, owners: InteractionOwners, callers: CallerRegistry,
        key: CacheEncryptionKey, logger: Logger
    ) async throws -> ProfileInterceptingProxy? {
        guard let proxyPort else { return nil }
        let hosts = try ProfileInterceptingProxy.httpsHosts(catalog)
        var authority: LocalCertificateAuthority?
        if !hosts.isEmpty {
            let sealer = try SymmetricKeyCertificateAuthoritySealer(
                keyBytes: Array(Data(base64Encoded: key.base64) ?? Data()))
            let file = try CertificateAuthorityFile.loadOrCreate(
                in: storeOptions.cacheDirectory, hosts: hosts, sealer: sealer)
            authority = file.authority
            logger.notice(
                file.created
                    ? "local certificate authority created: trust its certificate for the intercepted https hosts"
                    : "local certificate authority",
                metadata: [
                    "certificate": "\(file.certificatePath)", "sha256_fingerprint": "\(file.authority.fingerprint)",
                    "permitted_hosts": "\(file.authority.permittedHosts.joined(separator: " "))",
                ])
        }
        let interceptor = AdapterProxyInterceptor(adapter: slot, credentials: .signInPage(owners: owners))
        // The proxy acts with this user's single sign-on: only this uid and the registry's browser uids may use it.
        let admission = LocalUserProxyAdmission(
            serverUID: getuid(), registry: callers, browserBundleIdentifier: interceptor.browserBundleIdentifier,
            logger: logger)
        let proxy = try await ProfileInterceptingProxy.start(
            catalog: catalog, port: proxyPort, certificateAuthority: authority, interceptor: interceptor,
            clientAdmission: admission, privateCookieNamePrefixes: [AdapterProxyInterceptor.signInCookieNamePrefix],
            logger: logger)
        logger.info(
            "proxy listening", metadata: ["port": "\(proxy.proxy.port)", "intercepted": "\(proxy.prefixes.map(\.url))"])
        return proxy
    }

    private func listener() throws -> AppAPIServerConfiguration.Listener {
        if let host, let port, let tlsCert, let tlsKey, let clientCA {
            return .mutualTLS(
                host: host, port: port,
                try MutualTLS(
                    certificateChainPEM: SAMLFileInput.bytes(tlsCert, limit: 256 * 1024),
                    privateKeyPEM: PrivateFile.read(tlsKey),
                    clientCertificateAuthoritiesPEM: SAMLFileInput.bytes(clientCA, limit: 256 * 1024)))
        }
        if let host, let port { return .insecureLoopback(host: host, port: port) }
        if let socket { return .unixSocket(path: URL(fileURLWithPath: socket).path) }
        let environment = ProcessInfo.processInfo.environment
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return .unixSocket(path: URL(fileURLWithPath: runtime).appendingPathComponent("ssokit.sock").path)
        }
        try SecureFolder.prepare(storeOptions.cacheDirectory)
        return .unixSocket(path: storeOptions.cacheDirectory.appendingPathComponent("serve.sock").path)
    }

    /// `--registry`, else: over the socket, this user's uid may act as any app; over loopback TCP, any local
    /// process may (both with a warning).
    private func callerRegistry(
        listener: AppAPIServerConfiguration.Listener, logger: Logger
    ) throws -> CallerRegistry {
        if let registry {
            return try CallerRegistry(json: SAMLFileInput.bytes(registry, limit: CallerRegistry.maximumJSONBytes + 1))
        }
        var callers = CallerRegistry()
        switch listener {
        case .unixSocket:
            callers.grant(.anyApplication, to: .localUser(uid: getuid()))
            logger.warning("no --registry: this user (uid \(getuid())) may act as any app on the socket")
        case .insecureLoopback:
            callers.grant(.anyApplication, to: .loopback)
            logger.warning("no --registry: any local process may act as any app over loopback TCP")
        case .mutualTLS:
            break  // refused by validate(): mutual TLS needs a registry
        }
        if case .insecureLoopback(let host, _) = listener {
            logger.warning("--insecure-loopback: plain TCP on \(host); every local process can reach the app API")
        }
        return callers
    }
}
