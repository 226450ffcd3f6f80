/// One broken rule in one payload of a profile: which payload, which key, what is wrong.
public struct ProfileProblem: Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable kind of problem whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A required key is absent.
        public static let missingKey = Code("missing_key")
        /// A key holds a value of the wrong type (a string where an array is needed, say).
        public static let wrongType = Code("wrong_type")
        /// A key holds a value of the right type that is not allowed (an unknown `Type`, an empty string, ...).
        public static let invalidValue = Code("invalid_value")
        /// A Redirect URL is not an http(s) URL with a host, or has user info, a query or a fragment.
        public static let invalidURL = Code("invalid_url")
        /// A URL that SSOKit talks to or intercepts is plain http on a host that is not loopback.
        public static let insecureURL = Code("insecure_url")
        /// A Credential host is not a host name or a leading-dot domain suffix.
        public static let invalidHost = Code("invalid_host")
        /// A URL prefix appears twice across the payloads of the loaded profiles.
        public static let duplicateURL = Code("duplicate_url")
        /// A Credential host appears twice across the payloads of the loaded profiles.
        public static let duplicateHost = Code("duplicate_host")
        /// Two payloads share a PayloadIdentifier.
        public static let duplicatePayloadIdentifier = Code("duplicate_payload_identifier")
        /// Two keys that exclude each other are both present (`client_secret` and `client_secret_file`, ...).
        public static let conflictingKeys = Code("conflicting_keys")
        /// `protocol` is neither `oidc` nor `saml`.
        public static let unknownProtocol = Code("unknown_protocol")
        /// A file the payload names could not be read through the host's reader.
        public static let unreadableFile = Code("unreadable_file")
        /// A file the payload names was read but does not hold what the key needs (a PEM certificate, metadata).
        public static let invalidFile = Code("invalid_file")
        /// The profile holds no `com.apple.extensiblesso` payload.
        public static let noSSOPayload = Code("no_sso_payload")
        /// An associated-domains check failed: the host does not list the extension for `authsrv`.
        public static let associatedDomainMismatch = Code("associated_domain_mismatch")

        /// Every code, for tests and documentation.
        public static let all: [Code] = [
            .missingKey, .wrongType, .invalidValue, .invalidURL, .insecureURL, .invalidHost, .duplicateURL,
            .duplicateHost, .duplicatePayloadIdentifier, .conflictingKeys, .unknownProtocol, .unreadableFile,
            .invalidFile, .noSSOPayload, .associatedDomainMismatch,
        ]

        /// The stable snake_case name of the code.
        public var description: String { name }
    }

    /// The payload's PayloadIdentifier, or `PayloadContent[i]` when it has none, or `profile` for the whole file.
    public var payload: String
    /// The key, with ExtensionData members as `ExtensionData.<name>`.
    public var key: String
    /// What kind of problem.
    public var code: Code
    /// A human-readable explanation that never holds a secret.
    public var message: String

    /// Creates a problem.
    public init(payload: String, key: String, code: Code, message: String) {
        self.payload = payload
        self.key = key
        self.code = code
        self.message = message
    }

    /// `payload key: message`.
    public var description: String { "\(payload) \(key): \(message)" }
}
