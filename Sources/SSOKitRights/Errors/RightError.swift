import SSOKitCore

/// Every failure of SSOKitRights: a stable code and a reason that never holds a passphrase, key or secret.
public struct RightError: SSOKitError {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A private-key operation or the secret was asked for while the right is not authorized.
        public static let notAuthorized = Code("not_authorized")
        /// The requirements were not met (a wrong passphrase, an evaluator said no).
        public static let authorizationDenied = Code("authorization_denied")
        /// The user cancelled (the authenticator returned no passphrase).
        public static let cancelled = Code("cancelled")
        /// Too many failed attempts: authorization is refused until the backoff ends, or for good at the limit.
        public static let lockedOut = Code("locked_out")
        /// Another authorization of the same right is running.
        public static let authorizationInProgress = Code("authorization_in_progress")
        /// The requirement cannot be used as given (empty any-of/all-of, too many alternatives, a passphrase
        /// requirement without its passphrase, an unknown custom evaluator).
        public static let invalidRequirement = Code("invalid_requirement")
        /// The identifier is malformed.
        public static let invalidIdentifier = Code("invalid_identifier")
        /// A right already exists under this identifier.
        public static let alreadyExists = Code("already_exists")
        /// No right exists under this identifier.
        public static let notFound = Code("not_found")
        /// A stored right cannot be decoded or opened, or its attempt counters do not verify (tampering, or a
        /// different device key).
        public static let recordUnreadable = Code("record_unreadable")
        /// The right was persisted by an earlier SSOKit in a format that is no longer opened (its passphrase check
        /// could be tested offline): delete it and create it again.
        public static let recordOutdated = Code("record_outdated")
        /// The right holds no secret.
        public static let noSecret = Code("no_secret")
        /// A cryptographic operation failed (a malformed key, a ciphertext that does not open).
        public static let cryptoFailure = Code("crypto_failure")
        /// The backing store could not be read or written.
        public static let storeUnavailable = Code("store_unavailable")

        /// The stable snake_case name.
        public var description: String { name }

        /// Every code.
        public static let all: [Code] = [
            .notAuthorized, .authorizationDenied, .cancelled, .lockedOut, .authorizationInProgress,
            .invalidRequirement, .invalidIdentifier, .alreadyExists, .notFound, .recordUnreadable, .recordOutdated,
            .noSecret, .cryptoFailure, .storeUnavailable,
        ]
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation, safe to log.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
