import SSOKitCore

/// Every failure of the development IdP: a stable snake_case code and a reason that never holds a password, code,
/// token, cookie or SAML message.
///
/// The OAuth codes (RFC 6749 §5.2, OIDC Core §3.1.2.6, RFC 6750 §3.1) are the very `error` values the endpoints
/// answer with. Codes are extensible: switch over them with a `default`. Two errors are equal when their codes are.
public struct DevIdPError: SSOKitError {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The request is malformed: a missing, repeated or invalid parameter (RFC 6749 §4.1.2.1, §5.2).
        public static let invalidRequest = Code("invalid_request")
        /// Client authentication failed: unknown client, wrong secret or assertion, or another method than the one
        /// registered (RFC 6749 §5.2).
        public static let invalidClient = Code("invalid_client")
        /// The code or refresh token is invalid, expired, spent, revoked or issued to another client, or the PKCE
        /// verifier or redirect URI does not match (RFC 6749 §5.2, RFC 7636 §4.6).
        public static let invalidGrant = Code("invalid_grant")
        /// The client may not use this grant or response type.
        public static let unauthorizedClient = Code("unauthorized_client")
        /// The grant type is not authorization_code or refresh_token.
        public static let unsupportedGrantType = Code("unsupported_grant_type")
        /// The response type is not `code`.
        public static let unsupportedResponseType = Code("unsupported_response_type")
        /// A requested scope is unknown or not allowed for the client, or `openid` is missing.
        public static let invalidScope = Code("invalid_scope")
        /// A `request` object was sent; the IdP supports none (OIDC Core §3.1.2.6).
        public static let requestNotSupported = Code("request_not_supported")
        /// A `request_uri` was sent; the IdP supports none (OIDC Core §3.1.2.6).
        public static let requestURINotSupported = Code("request_uri_not_supported")
        /// The user cancelled the login or gave too many wrong passwords (RFC 6749 §4.1.2.1).
        public static let accessDenied = Code("access_denied")
        /// The user is not signed in and `prompt=none` forbids asking (OIDC Core §3.1.2.6).
        public static let loginRequired = Code("login_required")
        /// The access token is missing, unknown, expired or revoked (RFC 6750 §3.1).
        public static let invalidToken = Code("invalid_token")
        /// The `client_id` names no registered client; the browser is not redirected (RFC 6749 §4.1.2.1).
        public static let unknownClient = Code("unknown_client")
        /// The redirect URI (or post-logout redirect URI) is not registered for the client.
        public static let invalidRedirectURI = Code("invalid_redirect_uri")
        /// The SAML request's Issuer names no registered service provider.
        public static let unknownServiceProvider = Code("unknown_service_provider")
        /// The SAML request is malformed, stale, replayed or asks for something this IdP does not do.
        public static let invalidSAMLRequest = Code("invalid_saml_request")
        /// The AssertionConsumerServiceURL is not registered for the service provider.
        public static let invalidAssertionConsumerService = Code("invalid_assertion_consumer_service")
        /// The service provider must sign its requests and this one is not signed.
        public static let signatureRequired = Code("signature_required")
        /// A SAML request's signature does not verify with the service provider's certificates.
        public static let invalidSignature = Code("invalid_signature")
        /// The username or password is wrong.
        public static let invalidCredentials = Code("invalid_credentials")
        /// Too many wrong passwords for this user or login; wait and start again.
        public static let tooManyAttempts = Code("too_many_attempts")
        /// The login form was submitted without its pending login, after it expired, or from another browser.
        public static let loginExpired = Code("login_expired")
        /// The request body is larger than the endpoint accepts.
        public static let bodyTooLarge = Code("body_too_large")
        /// No endpoint at this path and method.
        public static let notFound = Code("not_found")
        /// The configuration, a registration or the users file is invalid.
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The data folder or a key file in it cannot be created, read or restricted.
        public static let dataFolderUnavailable = Code("data_folder_unavailable")
        /// A signing key or certificate could not be generated or loaded.
        public static let keyUnavailable = Code("key_unavailable")
        /// The server could not bind its address.
        public static let bindFailed = Code("bind_failed")
        /// A non-loopback host was given without allowing remote access.
        public static let remoteHostNotAllowed = Code("remote_host_not_allowed")
        /// Signing a token or message failed.
        public static let serverError = Code("server_error")

        /// The stable snake_case name, e.g. `invalid_grant`.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation, safe to log and to show.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
