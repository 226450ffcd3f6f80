import HTTPTypes

/// A refused step of a sign-in to a service that is itself a relying party (``RelyingPartyRoutes``): a stable
/// snake_case code, the HTTP status of the page the browser gets, and a message for people.
///
/// Messages describe what went wrong, never with what: no token, code, assertion, state or cookie value ends up in
/// one. ``reason`` carries the protocol library's own code (`nonce_mismatch`, `audience_mismatch`, …) for logs.
/// Codes are extensible: switch over them with a `default`. Two errors are equal when their codes are.
public struct RelyingPartyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The callback or ACS request names no login (no `state`, no RelayState).
        public static let loginStateMissing = Code("login_state_missing")
        /// No login was started under that `state` or RelayState (or it was dropped long ago).
        public static let loginStateUnknown = Code("login_state_unknown")
        /// The login was started too long ago.
        public static let loginStateExpired = Code("login_state_expired")
        /// The login was already completed: a callback or a Response posted a second time.
        public static let loginStateReplayed = Code("login_state_replayed")
        /// The login was started by another browser (its cookie is missing or different).
        public static let loginStateWrongBrowser = Code("login_state_wrong_browser")
        /// The identity provider answered with an error (OIDC `error=`, a SAML status other than Success).
        public static let identityProviderRefused = Code("identity_provider_refused")
        /// The OIDC callback, the code exchange or the ID token failed a check.
        public static let callbackRejected = Code("callback_rejected")
        /// The SAML Response failed a check.
        public static let assertionRejected = Code("assertion_rejected")
        /// The SAML assertion was already used.
        public static let assertionReplayed = Code("assertion_replayed")
        /// The identity provider could not be reached or answered nonsense.
        public static let identityProviderUnavailable = Code("identity_provider_unavailable")
        /// The request is larger than the route accepts.
        public static let requestTooLarge = Code("request_too_large")
        /// The request is not shaped as the route expects.
        public static let malformedRequest = Code("malformed_request")
        /// The service does not sign users in with this protocol.
        public static let protocolNotConfigured = Code("protocol_not_configured")
        /// The request needs a signed-in user and has none.
        public static let signInRequired = Code("sign_in_required")
        /// The relying party's configuration cannot work (found when the routes are created, never per request).
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The service's session storage failed.
        public static let sessionStorageFailed = Code("session_storage_failed")

        /// The snake_case name.
        public var description: String { name }
    }

    /// What failed.
    public let code: Code
    /// The status of the error page.
    public let status: HTTPResponse.Status
    /// What is wrong, for people; holds no value from the request.
    public let message: String
    /// The underlying library's code, when a protocol check failed (for logs, never shown with a value).
    public let reason: String?

    /// Creates an error.
    public init(_ code: Code, status: HTTPResponse.Status, _ message: String, reason: String? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.reason = reason
    }

    /// `code: message`, and the reason in parentheses.
    public var description: String {
        "\(code): \(message)" + (reason.map { " (\($0))" } ?? "")
    }

    /// Whether both errors have the same code.
    public static func == (lhs: RelyingPartyError, rhs: RelyingPartyError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension RelyingPartyError {
    static let stateMissing = RelyingPartyError(
        .loginStateMissing, status: .badRequest, "this request does not name a sign-in in progress")
    static let stateUnknown = RelyingPartyError(
        .loginStateUnknown, status: .badRequest, "no sign-in was started here under the name this request gives")
    static let stateExpired = RelyingPartyError(
        .loginStateExpired, status: .badRequest, "the sign-in took too long; start again")
    static let stateReplayed = RelyingPartyError(
        .loginStateReplayed, status: .badRequest, "this sign-in was already completed")
    static let wrongBrowser = RelyingPartyError(
        .loginStateWrongBrowser, status: .forbidden, "this sign-in was started in another browser")
    static let tooLarge = RelyingPartyError(
        .requestTooLarge, status: .contentTooLarge, "the request is larger than this route accepts")
    static let signInRequired = RelyingPartyError(
        .signInRequired, status: .unauthorized, "sign in first")

    static func notConfigured(_ protocolName: String) -> RelyingPartyError {
        RelyingPartyError(
            .protocolNotConfigured, status: .notFound, "this service does not sign users in with \(protocolName)")
    }

    static func storageFailed() -> RelyingPartyError {
        RelyingPartyError(.sessionStorageFailed, status: .serviceUnavailable, "the sign-in could not be stored")
    }
}
