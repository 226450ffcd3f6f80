import Logging

/// What the proxy intercepts, where it listens and what it allows.
public struct ProxyConfiguration: Sendable {
    /// The prefixes whose requests go to the ``ProxyInterceptor``.
    public var interceptPrefixes: [InterceptPrefix]
    /// The address to listen on; loopback by default. Any other address needs
    /// ``insecureListenBeyondLoopback``, because the proxy would then relay for anyone who can reach it.
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (read it from ``InterceptingProxy/port``).
    public var port: Int = 0
    /// Allows listening on an address other than loopback. Off by default: with it, every host that reaches the
    /// port can use the proxy to reach the allowed ports of any server this machine reaches.
    public var insecureListenBeyondLoopback: Bool = false
    /// The ports the proxy connects to for requests outside the prefixes and for blind tunnels: 443 and 80 by
    /// default, so that the proxy is not a relay to arbitrary services. The prefixes' own origins are always
    /// allowed. Anything else gets 403.
    public var allowedPorts: Set<Int> = [443, 80]
    /// Signs the leaf certificates for `https` prefixes; required when any prefix is `https`.
    public var certificateAuthority: LocalCertificateAuthority?
    /// The roots the proxy verifies origins against when it talks TLS to them itself.
    public var originTrust: OriginTrust = .system
    /// Size caps and timeouts.
    public var limits = ProxyLimits()
    /// Who may use the proxy at all, decided per connection by the host; nil serves every client that reaches the
    /// listening address (every local process on loopback). A host that acts for one user (its interceptor answers
    /// with that user's single sign-on) must set it.
    public var clientAdmission: (any ProxyClientAdmission)?
    /// Cookies of the host's own (a sign-in binding, say), by name prefix: removed from every request forwarded to
    /// an origin, passed-through intercepted requests included. None by default.
    public var privateCookieNamePrefixes: [String] = []
    /// Where the proxy says what it did: one line per exchange with the method, origin, status and error code,
    /// never a path, query, header value or body. Silent by default.
    public var logger = Logger(label: "ssokit.proxy", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A configuration for `interceptPrefixes` with the defaults above.
    public init(interceptPrefixes: [InterceptPrefix], certificateAuthority: LocalCertificateAuthority? = nil) {
        self.interceptPrefixes = interceptPrefixes
        self.certificateAuthority = certificateAuthority
    }
}
