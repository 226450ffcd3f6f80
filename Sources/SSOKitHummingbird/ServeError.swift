import SSOKitCore

/// Why SSOKitHummingbird could not set up or run a service: a caller registry it refused, a listener it may not
/// open, a socket it could not bind. Messages name the file or member at fault, never a value from it.
public struct ServeError: SSOKitError {
    /// A stable snake_case code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The registry file is not the registry's JSON shape (CLI-CONTRACT.md, `ssokit serve`).
        public static let invalidRegistry = Code("invalid_registry")
        /// The listener is not allowed (plain TCP beyond loopback, a timeout that is not positive, a bad path).
        public static let invalidListener = Code("invalid_listener")
        /// The mutual-TLS files are not usable PEM (certificate chain, private key, client CAs).
        public static let invalidTLS = Code("invalid_tls")
        /// The socket could not be bound (in use, no permission, a non-socket file at the path).
        public static let listenFailed = Code("listen_failed")
        /// The intercepting proxy's local certificate authority could not be read, created or stored.
        public static let certificateAuthorityUnavailable = Code("certificate_authority_unavailable")

        public var description: String { name }
    }

    /// The code.
    public var code: Code
    /// What is wrong, for people.
    public var message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message, as every SSOKit error names it (`SSOKitError` gives equality, hash and description).
    public var reason: String { message }
}
