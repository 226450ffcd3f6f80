import SSOKitCore

/// Everything a ``DevIdentityProvider`` serves: where it listens, its keys, users, clients and service providers.
public struct DevIdPConfiguration: Sendable {
    /// The host to bind (default 127.0.0.1). Anything but a loopback address needs ``allowRemote``.
    public var host: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    /// Whether a non-loopback ``host`` is allowed (the CLI's `--allow-remote`).
    public var allowRemote: Bool
    /// The signing keys.
    public var keys: DevIdPSigningKeys
    /// Who can sign in.
    public var users: [DevIdPUser]
    /// The OpenID Connect clients.
    public var clients: [OIDCClientRegistration]
    /// The SAML service providers.
    public var serviceProviders: [SAMLServiceProviderRegistration]
    /// Token, session and assertion lifetimes.
    public var lifetimes: DevIdPLifetimes
    /// Receives one line per request: method, path (never the query), status and milliseconds. Nil logs nothing.
    public var requestLog: (@Sendable (String) -> Void)?
    /// The clock.
    public var clock: any SSOKitClock

    /// Creates a configuration; by default the built-in demo client and service provider (``DevIdPDemo``) are
    /// registered, and the IdP listens on a free port of 127.0.0.1.
    public init(
        keys: DevIdPSigningKeys, users: [DevIdPUser], clients: [OIDCClientRegistration] = [DevIdPDemo.client],
        serviceProviders: [SAMLServiceProviderRegistration] = [DevIdPDemo.serviceProvider],
        host: String = "127.0.0.1", port: Int = 0, allowRemote: Bool = false, lifetimes: DevIdPLifetimes = .init(),
        requestLog: (@Sendable (String) -> Void)? = nil, clock: any SSOKitClock = SystemClock()
    ) {
        self.keys = keys
        self.users = users
        self.clients = clients
        self.serviceProviders = serviceProviders
        self.host = host
        self.port = port
        self.allowRemote = allowRemote
        self.lifetimes = lifetimes
        self.requestLog = requestLog
        self.clock = clock
    }
}
