import SSOKitCore

/// Why a configuration profile was refused: a stable code, a reason, and for ``Code-swift.struct/invalidProfile``
/// every problem found, each naming its payload and key.
///
/// Codes are extensible: new ones may be added in minor releases, so switch over them with a `default`. Two errors
/// are equal when their codes are. Reasons never hold a secret from the profile.
public struct ProfileError: SSOKitError {
    /// A stable, machine-readable kind of refusal whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The profile was read, but one or more payloads break a rule: see ``ProfileError/problems``.
        public static let invalidProfile = Code("invalid_profile")
        /// The bytes are not a property list, JSON or CMS document of the expected shape.
        public static let malformedProfile = Code("malformed_profile")
        /// The input exceeds ``ProfileLimits/maximumProfileBytes``.
        public static let profileTooLarge = Code("profile_too_large")
        /// The property list declares entities or an internal DTD subset; nothing is expanded.
        public static let entityDeclarationsRefused = Code("entity_declarations_refused")
        /// A binary or OpenStep property list, or CMS content of another kind: only XML property lists and JSON.
        public static let unsupportedFormat = Code("unsupported_format")
        /// A signature or content digest of a signed profile does not verify: the profile was altered.
        public static let invalidSignature = Code("invalid_signature")
        /// The signature verifies but its signer does not chain to a trust anchor the caller passed.
        public static let untrustedSigner = Code("untrusted_signer")
        /// The trust anchors passed hold no readable certificate.
        public static let invalidTrustAnchor = Code("invalid_trust_anchor")
        /// The profile is not signed but the loader requires a verified signature.
        public static let unsignedProfile = Code("unsigned_profile")
        /// A Redirect host's apple-app-site-association does not list the extension: see ``ProfileError/problems``.
        public static let associatedDomainsMismatch = Code("associated_domains_mismatch")

        /// Every code, for tests and documentation.
        public static let all: [Code] = [
            .invalidProfile, .malformedProfile, .profileTooLarge, .entityDeclarationsRefused, .unsupportedFormat,
            .invalidSignature, .untrustedSigner, .invalidTrustAnchor, .unsignedProfile, .associatedDomainsMismatch,
        ]

        /// The stable snake_case name of the code.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation.
    public var reason: String
    /// Every problem found, in the order of the payloads, for ``Code-swift.struct/invalidProfile``; else empty.
    public var problems: [ProfileProblem]

    /// Creates an error.
    public init(_ code: Code, _ reason: String, problems: [ProfileProblem] = []) {
        self.code = code
        self.reason = reason
        self.problems = problems
    }

    /// An ``Code-swift.struct/invalidProfile`` error for `problems`.
    static func invalid(_ problems: [ProfileProblem]) -> ProfileError {
        let summary = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return ProfileError(.invalidProfile, "the profile is invalid (\(summary))", problems: problems)
    }
}
