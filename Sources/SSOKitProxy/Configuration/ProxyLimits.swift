/// Bounds on what one browser, or many, may make the proxy hold or wait for.
public struct ProxyLimits: Sendable, Hashable {
    /// The largest request head (request line and header fields) accepted; larger heads get 431.
    public var maximumHeaderBytes: Int = 32 * 1024
    /// The largest response head accepted from an origin; a larger one ends the exchange with 502.
    public var maximumOriginHeaderBytes: Int = 64 * 1024
    /// The largest body read into memory for the interceptor; larger bodies get 413.
    public var maximumInterceptedBodyBytes: Int = 64 * 1024
    /// The most request-body bytes held while an origin connection is being opened before reading pauses.
    public var maximumPendingForwardBytes: Int = 64 * 1024
    /// The most browser connections (tunnels included) open at once; more are closed as soon as accepted.
    public var maximumConnections: Int = 256
    /// The time a browser has to send a whole request head, on a new connection or between requests; a slow or
    /// idle client gets 408 and the connection closes.
    public var requestHeadTimeout: Duration = .seconds(15)
    /// How long the host's ``ProxyClientAdmission`` may take to decide about a new connection; past it the client
    /// is refused.
    public var admissionTimeout: Duration = .seconds(5)
    /// The time a browser has to send the rest of a body the interceptor needs.
    public var interceptedBodyTimeout: Duration = .seconds(30)
    /// The time the interceptor has to decide; after it the browser gets 504.
    public var decisionTimeout: Duration = .seconds(60)
    /// The time to open a TCP connection to an origin or tunnel target; after it the browser gets 504.
    public var connectTimeout: Duration = .seconds(10)
    /// How long a forwarded exchange or a tunnel may stay without a byte in either direction before it closes.
    public var idleTimeout: Duration = .seconds(120)
    /// How many leaf certificates (one per intercepted host) stay cached.
    public var maximumCachedLeaves: Int = 64

    /// The defaults above.
    public init() {}
}
