import Logging
import NIOSSL
import Synchronization

/// What every connection of one proxy shares: the routing rules, the interceptor, the limits and the TLS
/// contexts. Immutable, an actor, or behind a lock (the routing rules, which a reload replaces).
final class ProxyShared: Sendable {
    private let routes: Mutex<ProxyRouter>
    let authority: LocalCertificateAuthority?
    let interceptor: any ProxyInterceptor
    let limits: ProxyLimits
    let logger: Logger
    let originTLS: NIOSSLContext
    let leaves: LeafContextCache?
    let admission: (any ProxyClientAdmission)?
    let privateCookieNamePrefixes: [String]

    init(configuration: ProxyConfiguration, interceptor: any ProxyInterceptor) throws(ProxyError) {
        routes = Mutex(ProxyRouter(prefixes: configuration.interceptPrefixes, allowedPorts: configuration.allowedPorts))
        authority = configuration.certificateAuthority
        self.interceptor = interceptor
        limits = configuration.limits
        logger = configuration.logger
        admission = configuration.clientAdmission
        privateCookieNamePrefixes = configuration.privateCookieNamePrefixes
        originTLS = try TLSContexts.originClient(trust: configuration.originTrust)
        leaves = configuration.certificateAuthority.map {
            LeafContextCache(authority: $0, capacity: configuration.limits.maximumCachedLeaves)
        }
    }

    /// The routing rules now; a connection reads them once per request or CONNECT.
    var router: ProxyRouter { routes.withLock { $0 } }

    /// Replaces the routing rules: the next request or CONNECT follows `router`.
    func replace(_ router: ProxyRouter) {
        routes.withLock { $0 = router }
    }
}
