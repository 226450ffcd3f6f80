/// A failure to exchange an HTTP request with a peer.
public struct HTTPTransportError: SSOKitError {
    /// A stable, machine-readable kind of transport failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The request could not be built (for example, a URL without a host).
        public static let invalidRequest = Code("invalid_request_url")
        /// The peer could not be reached or closed the connection.
        public static let connectionFailed = Code("connection_failed")
        /// The request did not finish within its deadline.
        public static let timeout = Code("timeout")
        /// The response body exceeded the transport's size cap.
        public static let responseTooLarge = Code("response_too_large")

        /// The stable snake_case name of the code.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation; never holds request or response bodies.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
