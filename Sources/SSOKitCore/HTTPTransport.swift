import HTTPTypes

/// An HTTP response with its fully collected body.
public struct HTTPTransportResponse: Sendable {
    /// The status line and headers.
    public var response: HTTPResponse
    /// The body bytes, at most the transport's size cap.
    public var body: [UInt8]

    /// Creates a response.
    public init(response: HTTPResponse, body: [UInt8]) {
        self.response = response
        self.body = body
    }
}

/// The one way SSOKit talks to an identity provider over HTTP.
///
/// Implementations never follow redirects silently (a 3xx is returned as it is), bound the time a request may
/// take, and refuse bodies larger than their cap with ``HTTPTransportError/Code-swift.struct/responseTooLarge``.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with an optional body and returns the response with its body collected.
    func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> HTTPTransportResponse
}
