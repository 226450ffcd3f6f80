import SSOKitCore

/// Every rejection from SSOKitProxy: a stable code and a reason that never holds a request body, cookie, token or
/// private key.
///
/// Codes are extensible: new ones may be added in minor releases, so switch over them with a `default`.
/// Two errors are equal when their codes are.
public struct ProxyError: SSOKitError {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// An intercept prefix is not an absolute http(s) URL with a valid host and no user info, query or fragment.
        public static let invalidPrefix = Code("invalid_prefix")
        /// A host name is neither DNS labels nor an IP literal (it could inject text into a PAC file).
        public static let invalidHost = Code("invalid_host")
        /// The configuration contradicts itself or asks for something unsafe without naming the opt-out.
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The proxy could not listen on the requested address.
        public static let listenFailed = Code("listen_failed")
        /// The certificate authority could not be created or could not issue a certificate.
        public static let certificateAuthorityFailed = Code("certificate_authority_failed")
        /// A stored certificate authority is malformed, too large, or its key does not unseal or match.
        public static let certificateAuthorityUnreadable = Code("certificate_authority_unreadable")
        /// The certificate authority's name constraints do not permit a certificate for this host.
        public static let hostNotPermitted = Code("host_not_permitted")
        /// A TLS context could not be built from the given certificates or keys.
        public static let tlsConfigurationFailed = Code("tls_configuration_failed")

        /// The stable snake_case name of the code.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
