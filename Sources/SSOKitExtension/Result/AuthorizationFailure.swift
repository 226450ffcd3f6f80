/// Why the extension could not complete a request: a code that maps onto `ASAuthorizationError`, a finer reason in
/// snake_case, and a message for people. Neither the reason nor the message ever holds a token, cookie, password
/// or assertion.
public struct AuthorizationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `ASAuthorizationError` the failure maps onto.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The user or the configuration cancelled the request (`ASAuthorizationError.canceled`).
        public static let canceled = Code("canceled")
        /// The request failed (`.failed`).
        public static let failed = Code("failed")
        /// What came back cannot be passed on (`.invalidResponse`).
        public static let invalidResponse = Code("invalid_response")
        /// The extension does not handle this request (`.notHandled`).
        public static let notHandled = Code("not_handled")
        /// The request needs the user but UI is not allowed (`.notInteractive`).
        public static let notInteractive = Code("not_interactive")

        /// The stable snake_case name.
        public var description: String { name }
    }

    /// A stable snake_case reason, finer than the code. The set is open: protocol failures carry the code of the
    /// module that reported them (`invalid_grant`, `state_mismatch`, `invalid_signature`, ...).
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// The snake_case name.
        public let name: String
        /// A reason named `name` (snake_case).
        public init(_ name: String) { self.name = name }

        /// The user must log in, and the request may not show UI (or is a silent `refresh`): call `login`.
        public static let loginRequired = Reason("login_required")
        /// The payload does not serve the calling app.
        public static let appNotPermitted = Reason("app_not_permitted")
        /// The IdP refused the credentials (it showed its login form again).
        public static let invalidCredentials = Reason("invalid_credentials")
        /// A credential the login form needs was not supplied.
        public static let missingCredentials = Reason("missing_credentials")
        /// The IdP answered with something the adapter cannot use.
        public static let idpError = Reason("idp_error")
        /// The answer would exceed the response size cap.
        public static let responseTooLarge = Reason("response_too_large")
        /// The interaction is unknown, was already resumed, or has expired.
        public static let interactionExpired = Reason("interaction_expired")
        /// The answer to an interaction does not fit it.
        public static let invalidInteractionResponse = Reason("invalid_interaction_response")
        /// The screen is locked and the payload's ScreenLockedBehavior is Cancel.
        public static let screenLocked = Reason("screen_locked")
        /// The payload's `token_right` is not authorized, and cannot be now.
        public static let rightNotAuthorized = Reason("right_not_authorized")
        /// The request is malformed (a caller identifier that is not a bundle identifier, a missing URL, ...).
        public static let invalidRequest = Reason("invalid_request")
        /// The operation is not one this payload's handler knows.
        public static let unsupportedOperation = Reason("unsupported_operation")
        /// The user cancelled the interaction.
        public static let userCanceled = Reason("user_canceled")
        /// The token cache cannot be read or written.
        public static let storeUnavailable = Reason("store_unavailable")
        /// The caller already has as many pending interactions as its host allows: finish or abandon one first.
        public static let tooManyInteractions = Reason("too_many_interactions")
        /// The payload lacks a setting this request needs (a `redirect_uri`, the IdP's SSO URL, a client key).
        public static let configurationIncomplete = Reason("configuration_incomplete")
        /// The IdP redirected too often, or in a loop.
        public static let tooManyRedirects = Reason("too_many_redirects")

        /// The name.
        public var description: String { name }
    }

    /// The `ASAuthorizationError` kind.
    public var code: Code
    /// The finer reason.
    public var reason: Reason
    /// A message for people; never a secret.
    public var message: String

    /// Creates a failure.
    public init(_ code: Code, _ reason: Reason, _ message: String) {
        self.code = code
        self.reason = reason
        self.message = message
    }

    /// `code/reason: message`.
    public var description: String { "\(code)/\(reason): \(message)" }

    /// Failures are equal when their codes and reasons are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.reason == rhs.reason }
    /// Hashes the code and the reason.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(reason)
    }
}
