import SSOKitCore

/// Every rejection from SSOKitOIDC: a stable code and a reason that never holds a token, code or secret.
///
/// Codes are extensible: new ones may be added in minor releases, so switch over them with a `default`.
/// Two errors are equal when their codes are.
public struct OIDCError: SSOKitError {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The token is not a well-formed compact JWS.
        public static let malformedToken = Code("malformed_token")
        /// The token exceeds the configured size cap.
        public static let tokenTooLarge = Code("token_too_large")
        /// The `alg` is `none`, symmetric, unknown or outside the allow-list.
        public static let unsupportedAlgorithm = Code("unsupported_algorithm")
        /// The signature does not verify with the selected key.
        public static let invalidSignature = Code("invalid_signature")
        /// No configured key matches the token's `kid` and algorithm.
        public static let keyNotFound = Code("key_not_found")
        /// The header lists a `crit` extension that SSOKit does not understand.
        public static let unsupportedCriticalHeader = Code("unsupported_critical_header")
        /// The issuer differs from the configured one.
        public static let issuerMismatch = Code("issuer_mismatch")
        /// The audience does not contain the client ID.
        public static let audienceMismatch = Code("audience_mismatch")
        /// `azp` is missing with several audiences, or names another client.
        public static let authorizedPartyMismatch = Code("authorized_party_mismatch")
        /// `exp` is in the past beyond the clock skew.
        public static let tokenExpired = Code("token_expired")
        /// `nbf` is in the future beyond the clock skew.
        public static let tokenNotYetValid = Code("token_not_yet_valid")
        /// `iat` is in the future beyond the clock skew.
        public static let issuedInFuture = Code("issued_in_future")
        /// A required claim is absent.
        public static let missingClaim = Code("missing_claim")
        /// A claim has the wrong JSON type or an impossible value.
        public static let invalidClaim = Code("invalid_claim")
        /// The `nonce` is absent or differs from the one sent.
        public static let nonceMismatch = Code("nonce_mismatch")
        /// `auth_time` is older than the requested `max_age` allows.
        public static let maxAgeExceeded = Code("max_age_exceeded")
        /// `at_hash` does not match the access token.
        public static let accessTokenHashMismatch = Code("at_hash_mismatch")
        /// `c_hash` does not match the authorization code.
        public static let codeHashMismatch = Code("c_hash_mismatch")
        /// A refreshed ID token changed `iss`, `sub` or `aud` (OIDC Core §12.2).
        public static let refreshClaimsMismatch = Code("refresh_claims_mismatch")
        /// A PKCE verifier is malformed or does not match its challenge.
        public static let invalidCodeVerifier = Code("invalid_code_verifier")
        /// A URL is not https and not on a loopback host.
        public static let insecureURL = Code("insecure_url")
        /// The discovery document is malformed or lacks a required member.
        public static let invalidDiscoveryDocument = Code("invalid_discovery_document")
        /// The discovery document could not be fetched.
        public static let discoveryFailed = Code("discovery_failed")
        /// The JWK set is malformed.
        public static let invalidJWKS = Code("invalid_jwks")
        /// The JWK set could not be fetched and no earlier set is cached.
        public static let jwksFetchFailed = Code("jwks_fetch_failed")
        /// A client's private key (for `private_key_jwt`) could not be read, or is of a kind SSOKit does not sign with.
        public static let invalidKey = Code("invalid_key")
        /// The callback's `state` differs from the one sent.
        public static let stateMismatch = Code("state_mismatch")
        /// The provider advertises RFC 9207 but the callback has no `iss`.
        public static let missingIssuerParameter = Code("missing_issuer_parameter")
        /// The callback lacks `code` or is otherwise malformed.
        public static let invalidCallback = Code("invalid_callback")
        /// The user or provider denied the request.
        public static let accessDenied = Code("access_denied")
        /// The provider needs the user to log in (prompt=none).
        public static let loginRequired = Code("login_required")
        /// The provider needs user interaction (prompt=none).
        public static let interactionRequired = Code("interaction_required")
        /// The provider needs the user's consent (prompt=none).
        public static let consentRequired = Code("consent_required")
        /// The provider rejected the request as malformed.
        public static let invalidRequest = Code("invalid_request")
        /// Client authentication failed.
        public static let invalidClient = Code("invalid_client")
        /// The code, refresh token or device code is invalid, expired or revoked.
        public static let invalidGrant = Code("invalid_grant")
        /// The client may not use this grant.
        public static let unauthorizedClient = Code("unauthorized_client")
        /// The provider does not support this grant.
        public static let unsupportedGrantType = Code("unsupported_grant_type")
        /// The requested scope is invalid.
        public static let invalidScope = Code("invalid_scope")
        /// The provider reported an internal error.
        public static let serverError = Code("server_error")
        /// The provider is temporarily unavailable.
        public static let temporarilyUnavailable = Code("temporarily_unavailable")
        /// The provider returned an error code SSOKit does not know.
        public static let providerError = Code("provider_error")
        /// The user has not yet approved the device authorization (RFC 8628 §3.5); keep polling.
        public static let authorizationPending = Code("authorization_pending")
        /// The client polls too fast (RFC 8628 §3.5); add 5 seconds to the interval.
        public static let slowDown = Code("slow_down")
        /// The device code expired before the user approved (RFC 8628 §3.5).
        public static let expiredToken = Code("expired_token")
        /// The token endpoint's response is malformed.
        public static let invalidTokenResponse = Code("invalid_token_response")
        /// The token endpoint returned a token type other than Bearer.
        public static let unexpectedTokenType = Code("unexpected_token_type")
        /// An endpoint answered with an unexpected HTTP status.
        public static let unexpectedStatus = Code("unexpected_status")
        /// UserInfo's `sub` differs from the ID token's.
        public static let userInfoSubjectMismatch = Code("userinfo_subject_mismatch")
        /// The UserInfo response is malformed.
        public static let invalidUserInfo = Code("invalid_userinfo")
        /// The provider does not offer an endpoint this operation needs.
        public static let unsupportedFeature = Code("unsupported_feature")
        /// The HTTP exchange with the provider failed.
        public static let transportFailed = Code("transport_failed")
        /// Polling stopped at the caller's deadline before the user approved.
        public static let deviceFlowTimedOut = Code("device_flow_timed_out")
        /// The provider cannot revoke this kind of token (RFC 7009 §2.2.1).
        public static let unsupportedTokenType = Code("unsupported_token_type")
        /// An exchange with the provider did not finish within the caller's deadline.
        public static let timedOut = Code("timed_out")

        /// The stable snake_case name, e.g. `invalid_signature`.
        public var description: String { name }

        /// Every code, for documentation and exhaustive tests.
        public static let all: [Code] = [
            .malformedToken,
            .tokenTooLarge,
            .unsupportedAlgorithm,
            .invalidSignature,
            .keyNotFound,
            .unsupportedCriticalHeader,
            .issuerMismatch,
            .audienceMismatch,
            .authorizedPartyMismatch,
            .tokenExpired,
            .tokenNotYetValid,
            .issuedInFuture,
            .missingClaim,
            .invalidClaim,
            .nonceMismatch,
            .maxAgeExceeded,
            .accessTokenHashMismatch,
            .codeHashMismatch,
            .refreshClaimsMismatch,
            .invalidCodeVerifier,
            .insecureURL,
            .invalidDiscoveryDocument,
            .discoveryFailed,
            .invalidJWKS,
            .jwksFetchFailed,
            .stateMismatch,
            .missingIssuerParameter,
            .invalidCallback,
            .accessDenied,
            .loginRequired,
            .interactionRequired,
            .consentRequired,
            .invalidRequest,
            .invalidClient,
            .invalidGrant,
            .unauthorizedClient,
            .unsupportedGrantType,
            .invalidScope,
            .serverError,
            .temporarilyUnavailable,
            .providerError,
            .authorizationPending,
            .slowDown,
            .expiredToken,
            .invalidTokenResponse,
            .unexpectedTokenType,
            .unexpectedStatus,
            .userInfoSubjectMismatch,
            .invalidUserInfo,
            .unsupportedFeature,
            .transportFailed,
            .deviceFlowTimedOut,
            .unsupportedTokenType,
            .timedOut,
            .invalidKey,
        ]
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation, safe to log.
    public var reason: String
    /// The ``IDTokenCheck/name`` of the claim rule that refused an ID token; `nil` for every other failure. It never
    /// changes the ``code``, and takes no part in equality.
    public var rule: String?

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
        self.rule = nil
    }
}
