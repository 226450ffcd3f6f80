import SSOKitCore

/// The claims of a verified ID token: the standard ones typed, every one available raw.
public struct IDTokenClaims: Sendable {
    /// `iss`.
    public let issuer: String
    /// `sub`.
    public let subject: String
    /// `aud`, always as a list.
    public let audience: [String]
    /// `exp`, exactly as the token states it (a fraction included).
    public let expiresAt: NumericDate
    /// `iat`, exactly as the token states it.
    public let issuedAt: NumericDate
    /// `nbf`, when present.
    public let notBefore: NumericDate?
    /// `auth_time`, when present.
    public let authTime: NumericDate?
    /// `nonce`, when present.
    public let nonce: String?
    /// `azp`, when present.
    public let authorizedParty: String?
    /// `at_hash`, when present.
    public let accessTokenHash: String?
    /// `c_hash`, when present.
    public let codeHash: String?
    /// Every claim as it appeared in the token (built on first use, then kept).
    public var all: [String: JSONValue] { storage.all }
    private let storage: IDTokenClaimStorage

    /// Reads the standard claims; `missing_claim` or `invalid_claim` when one is absent or of the wrong type.
    public init(_ claims: [String: JSONValue]) throws(OIDCError) {
        var standard = StandardClaimValues()
        for name in StandardClaimValues.names {
            if let value = claims[name] { standard.record(JSONMember(name: name, value: value)) }
        }
        try self.init(standard, storage: IDTokenClaimStorage(dictionary: claims))
    }

    /// Reads the standard claims from a token's members in one pass, leaving the dictionary of ``all`` until it is
    /// asked for; the same rules and errors as ``init(_:)``.
    init(members: [JSONMember]) throws(OIDCError) {
        var standard = StandardClaimValues()
        for member in members { standard.record(member) }
        try self.init(standard, storage: IDTokenClaimStorage(members: members))
    }

    private init(_ claims: StandardClaimValues, storage: IDTokenClaimStorage) throws(OIDCError) {
        func requiredString(_ name: String, _ value: JSONValue?) throws(OIDCError) -> String {
            guard let value else { throw OIDCError(.missingClaim, "the \"\(name)\" claim is missing") }
            guard let string = value.stringValue else {
                throw OIDCError(.invalidClaim, "the \"\(name)\" claim is not a string")
            }
            return string
        }
        func optionalString(_ name: String, _ value: JSONValue?) throws(OIDCError) -> String? {
            guard let value else { return nil }
            guard let string = value.stringValue else {
                throw OIDCError(.invalidClaim, "the \"\(name)\" claim is not a string")
            }
            return string
        }
        func optionalTime(_ name: String, _ value: JSONValue?) throws(OIDCError) -> NumericDate? {
            guard let value else { return nil }
            // RFC 7519 §2: a NumericDate is any JSON number of seconds, a fraction included.
            guard let seconds = NumericDate(value) else {
                throw OIDCError(.invalidClaim, "the \"\(name)\" claim is not a number of seconds within range")
            }
            return seconds
        }
        func requiredTime(_ name: String, _ value: JSONValue?) throws(OIDCError) -> NumericDate {
            guard let seconds = try optionalTime(name, value) else {
                throw OIDCError(.missingClaim, "the \"\(name)\" claim is missing")
            }
            return seconds
        }

        issuer = try requiredString("iss", claims.issuer)
        subject = try requiredString("sub", claims.subject)
        switch claims.audience {
        case nil: throw OIDCError(.missingClaim, "the \"aud\" claim is missing")
        case .string(let single)?: audience = [single]
        case .array(let list)?:
            var names: [String] = []
            for entry in list {
                guard let name = entry.stringValue else {
                    throw OIDCError(.invalidClaim, "the \"aud\" claim holds a non-string")
                }
                names.append(name)
            }
            guard !names.isEmpty else { throw OIDCError(.invalidClaim, "the \"aud\" claim is an empty list") }
            audience = names
        default: throw OIDCError(.invalidClaim, "the \"aud\" claim is neither a string nor a list")
        }
        expiresAt = try requiredTime("exp", claims.expiresAt)
        issuedAt = try requiredTime("iat", claims.issuedAt)
        notBefore = try optionalTime("nbf", claims.notBefore)
        authTime = try optionalTime("auth_time", claims.authTime)
        nonce = try optionalString("nonce", claims.nonce)
        authorizedParty = try optionalString("azp", claims.authorizedParty)
        accessTokenHash = try optionalString("at_hash", claims.accessTokenHash)
        codeHash = try optionalString("c_hash", claims.codeHash)
        self.storage = storage
    }
}
