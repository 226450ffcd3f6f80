import SSOKitCore

/// Every failure of the token cache and of its stores (SSOKitStore, SSOKitTokenCache, SSOKitPostgres): a stable code
/// and a reason that never holds a token or key.
///
/// A refresh function's own error is not wrapped: it reaches every waiting caller unchanged.
public struct TokenCacheError: SSOKitError {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The store could not be read or written; nothing was half-written.
        public static let storeUnavailable = Code("store_unavailable")
        /// A stored entry cannot be decrypted or decoded (wrong key, tampering, rows swapped between entries).
        public static let entryUnreadable = Code("entry_unreadable")
        /// The encryption key is malformed.
        public static let invalidKey = Code("invalid_key")
        /// No entry exists for the key and no refresh is possible.
        public static let notFound = Code("not_found")
        /// The entry has no refresh token, so it cannot be renewed.
        public static let notRefreshable = Code("not_refreshable")
        /// A bounded structure is full.
        public static let capacityExceeded = Code("capacity_exceeded")

        /// The stable snake_case name.
        public var description: String { name }

        /// Every code.
        public static let all: [Code] = [
            .storeUnavailable, .entryUnreadable, .invalidKey, .notFound, .notRefreshable, .capacityExceeded,
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
