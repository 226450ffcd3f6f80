/// Where and how ``AppAPIServer`` listens.
public struct AppAPIServerConfiguration: Sendable {
    /// The listening socket.
    public enum Listener: Sendable {
        /// A Unix domain socket at `path`, created with mode 0600; callers are known by their uid.
        case unixSocket(path: String)
        /// Plain TCP on a loopback `host` (`--insecure-loopback`): every local process is the `loopback` caller.
        case insecureLoopback(host: String, port: Int)
        /// TCP with mutual TLS on `host` (any address): callers are known by their client certificate.
        case mutualTLS(host: String, port: Int, MutualTLS)
    }

    /// The listening socket.
    public var listener: Listener
    /// How long a client may take to send a whole request, from the connection opening or the previous response
    /// ending; a slower client's connection is closed.
    public var requestTimeout: Duration = .seconds(30)
    /// How many connections may be open at once; a connection over the cap is closed as soon as it is accepted.
    public var maximumConnections = 512
    /// How many connections one TCP peer address may have open at once (Unix socket peers count only towards
    /// ``maximumConnections``).
    public var maximumConnectionsPerPeer = 32
    /// How long a mutual-TLS client may take to finish its handshake; a slower one is disconnected.
    public var tlsHandshakeTimeout: Duration = .seconds(5)

    /// A configuration for `listener`.
    public init(listener: Listener) {
        self.listener = listener
    }
}
