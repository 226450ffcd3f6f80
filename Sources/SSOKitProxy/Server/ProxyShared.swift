import Logging
import NIOSSL

/// What every connection of one proxy shares: the routing rules, the interceptor, the limits and the TLS
/// contexts. Immutable, or an actor.
final class ProxyShared: Sendable {
    let router: ProxyRouter
    let interceptor: any ProxyInterceptor
    let limits: ProxyLimits
    let logger: Logger
    let originTLS: NIOSSLContext
    let leaves: LeafContextCache?
    let admission: (any ProxyClientAdmission)?
    let privateCookieNamePrefixes: [String]

    init(configuration: ProxyConfiguration, interceptor: any ProxyInterceptor) throws(ProxyError) {
        router = ProxyRouter(prefixes: configuration.interceptPrefixes, allowedPorts: configuration.allowedPorts)
        self.interceptor = interceptor
        limits = configuration.limits
        logger = configuration.logger
        admission = configuration.clientAdmission
        privateCookieNamePrefixes = configuration.privateCookieNamePrefixes
        originTLS = try TLSContexts.originClient(trust: configuration.originTrust)
        leaves = configuration.certificateAuthority.map {
            LeafContextCache(authority: $0, capacity: configuration.limits.maxCachedLeaves)
        }
    }
}
