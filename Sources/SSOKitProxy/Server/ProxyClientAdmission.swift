/// The two ends of one browser connection to the proxy, as the socket reports them: what a host needs to find out
/// who is calling (on Linux, the uid that owns the client's loopback socket).
public struct ProxyClientConnection: Sendable, Hashable {
    /// The client's address (`127.0.0.1`, `::1`, ...).
    public var clientHost: String
    /// The client's port.
    public var clientPort: Int
    /// The proxy's own address on this connection.
    public var proxyHost: String
    /// The proxy's own port on this connection.
    public var proxyPort: Int

    /// Creates a description of a connection.
    public init(clientHost: String, clientPort: Int, proxyHost: String, proxyPort: Int) {
        self.clientHost = clientHost
        self.clientPort = clientPort
        self.proxyHost = proxyHost
        self.proxyPort = proxyPort
    }
}

/// Decides which clients the proxy serves, once per connection and before any of its bytes are read: the host's
/// hook (``ProxyConfiguration/clientAdmission``), because only the host knows whom it acts for.
///
/// Every request on a refused connection, intercepted or not, gets 403 `client_not_permitted`; so does every request
/// when the decision takes longer than ``ProxyLimits/admissionTimeout``.
public protocol ProxyClientAdmission: Sendable {
    /// Whether the proxy serves the client on `connection`. A client that cannot be identified should be refused.
    func admits(_ connection: ProxyClientConnection) async -> Bool
}
