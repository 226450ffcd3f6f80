import HTTPTypes

/// A browser request under an intercept prefix, with its body fully read (at most
/// ``ProxyLimits/maximumInterceptedBodyBytes``).
///
/// `request` carries the absolute target: `scheme`, `authority` and `path` (with the query) are always set, and
/// hop-by-hop fields (RFC 9110 §7.6.1) and `Proxy-Authorization` are already removed.
public struct InterceptedRequest: Sendable {
    /// Method, absolute target and end-to-end header fields.
    public var request: HTTPRequest
    /// The request body; empty when there is none.
    public var body: [UInt8]
    /// The intercept prefix the request matched.
    public var prefix: InterceptPrefix
    /// Whether the browser reached the proxy through a TLS tunnel terminated with the local certificate authority.
    public var arrivedThroughTLSInterception: Bool

    /// Creates a request.
    public init(request: HTTPRequest, body: [UInt8], prefix: InterceptPrefix, arrivedThroughTLSInterception: Bool) {
        self.request = request
        self.body = body
        self.prefix = prefix
        self.arrivedThroughTLSInterception = arrivedThroughTLSInterception
    }
}
