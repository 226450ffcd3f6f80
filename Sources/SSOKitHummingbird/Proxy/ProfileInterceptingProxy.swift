import Logging
import SSOKitExtension
import SSOKitProxy
import Synchronization

/// The intercepting proxy of a server whose profile can be reloaded: what it intercepts and the PAC file that
/// sends browsers to it follow the profile's Redirect URLs (``RedirectIntercepts``).
///
/// Besides the prefixes' own ports, the proxy connects to 443 and 80 only (blind tunnels and requests outside the
/// prefixes). https prefixes need the local certificate authority, whose name constraints must permit their hosts.
public final class ProfileInterceptingProxy: Sendable {
    /// The running proxy.
    public let proxy: InterceptingProxy
    private let current: Mutex<(prefixes: [InterceptPrefix], autoConfig: ProxyAutoConfig)>

    private init(proxy: InterceptingProxy, prefixes: [InterceptPrefix], autoConfig: ProxyAutoConfig) {
        self.proxy = proxy
        current = Mutex((prefixes, autoConfig))
    }

    /// Starts a proxy on loopback `port` (0: any free port) for `catalog`'s Redirect URLs, signing https hosts'
    /// leaves with `certificateAuthority`, handing intercepted requests to `interceptor`. `clientAdmission` decides
    /// which local clients may use the proxy at all (nil: every client); cookies whose names start with one of
    /// `privateCookieNamePrefixes` never leave the proxy.
    ///
    /// - Throws: `ProxyError` when a Redirect URL cannot be intercepted (an https one without an
    ///   authority that permits its host) or the port cannot be bound.
    public static func start(
        catalog: ProfileCatalog, port: Int, certificateAuthority: LocalCertificateAuthority?,
        interceptor: some ProxyInterceptor, clientAdmission: (any ProxyClientAdmission)? = nil,
        privateCookieNamePrefixes: [String] = [], logger: Logger
    ) async throws(ProxyError) -> ProfileInterceptingProxy {
        let prefixes = try RedirectIntercepts.prefixes(catalog)
        var configuration = ProxyConfiguration(
            interceptPrefixes: prefixes, certificateAuthority: certificateAuthority)
        configuration.port = port
        configuration.allowedPorts = allowedPorts(prefixes)
        configuration.logger = logger
        configuration.clientAdmission = clientAdmission
        configuration.privateCookieNamePrefixes = privateCookieNamePrefixes
        let proxy = try await InterceptingProxy.start(configuration: configuration, interceptor: interceptor)
        let autoConfig = try ProxyAutoConfig(prefixes: prefixes, proxyPort: proxy.port)
        return ProfileInterceptingProxy(proxy: proxy, prefixes: prefixes, autoConfig: autoConfig)
    }

    /// The PAC file now.
    public var autoConfig: ProxyAutoConfig { current.withLock { $0.autoConfig } }

    /// The intercepted prefixes now.
    public var prefixes: [InterceptPrefix] { current.withLock { $0.prefixes } }

    /// Follows a reloaded profile: the proxy intercepts `catalog`'s Redirect URLs from the next request or CONNECT
    /// on, and the PAC file names their origins. When it throws, nothing changed.
    public func reload(_ catalog: ProfileCatalog) throws(ProxyError) {
        let prefixes = try RedirectIntercepts.prefixes(catalog)
        let autoConfig = try ProxyAutoConfig(prefixes: prefixes, proxyPort: proxy.port)
        try proxy.update(interceptPrefixes: prefixes, allowedPorts: Self.allowedPorts(prefixes))
        current.withLock { $0 = (prefixes, autoConfig) }
    }

    /// The hosts of `catalog`'s https Redirect URLs: those the local certificate authority must permit.
    public static func httpsHosts(_ catalog: ProfileCatalog) throws(ProxyError) -> [String] {
        var hosts: [String] = []
        for prefix in try RedirectIntercepts.prefixes(catalog)
        where prefix.origin.scheme == "https" && !hosts.contains(prefix.origin.host) {
            hosts.append(prefix.origin.host)
        }
        return hosts
    }

    private static func allowedPorts(_ prefixes: [InterceptPrefix]) -> Set<Int> {
        Set([443, 80]).union(prefixes.map(\.origin.port))
    }
}
