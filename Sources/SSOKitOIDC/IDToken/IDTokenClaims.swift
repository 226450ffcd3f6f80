import SSOKitCore

/// The claims of a verified ID token: the standard ones typed, every one available raw.
public struct IDTokenClaims: Sendable {
    /// `iss`.
    public let issuer: String
    /// `sub`.
    public let subject: String
    /// `aud`, always as a list (made on each access: a token with one audience keeps it as a single string).
    public var audience: [String] {
        switch audienceValue {
        case .one(let name): [name]
        case .several(let names): names
        }
    }
    /// `aud` as the token wrote it: one name (the usual case, kept without allocating a list) or a list.
    private let audienceValue: Audience
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
    /// Every claim as it appeared in the token. Made from the token on each access: keep the dictionary when reading
    /// several claims.
    public var all: [String: JSONValue] { storage.all }
    private let storage: IDTokenClaimStorage

    /// Reads the standard claims; `missing_claim` or `invalid_claim` when one is absent or of the wrong type.
    public init(_ claims: [String: JSONValue]) throws(OIDCError) {
        let members = StandardClaimPositions.names.compactMap { name in
            claims[name].map { JSONMember(name: name, value: $0) }
        }
        try self.init(members, storage: IDTokenClaimStorage(dictionary: claims))
    }

    /// Reads the standard claims from a token's members in one pass, leaving the dictionary of ``all`` until it is
    /// asked for; the same rules and errors as ``init(_:)``.
    init(members: [JSONMember]) throws(OIDCError) {
        try self.init(members, storage: IDTokenClaimStorage(members: members))
    }

    private init(_ members: [JSONMember], storage: IDTokenClaimStorage) throws(OIDCError) {
        let claims = StandardClaimPositions(members)
        func requiredString(_ name: String, _ position: Int?) throws(OIDCError) -> String {
            guard let position else { throw OIDCError(.missingClaim, "the \"\(name)\" claim is missing") }
            guard case .string(let string) = members[position].value else {
                throw OIDCError(.invalidClaim, "the \"\(name)\" claim is not a string")
            }
            return string
        }
        func optionalString(_ name: String, _ position: Int?) throws(OIDCError) -> String? {
            guard let position else { return nil }
            guard case .string(let string) = members[position].value else {
                throw OIDCError(.invalidClaim, "the \"\(name)\" claim is not a string")
            }
            return string
        }
        func optionalTime(_ name: String, _ position: Int?) throws(OIDCError) -> NumericDate? {
            guard let position else { return nil }
            // RFC 7519 §2: a NumericDate is any JSON number of seconds, a fraction included.
            guard let seconds = NumericDate(members[position].value) else {
                throw OIDCError(.invalidClaim, "the \"\(name)\" claim is not a number of seconds within range")
            }
            return seconds
        }
        func requiredTime(_ name: String, _ position: Int?) throws(OIDCError) -> NumericDate {
            guard let seconds = try optionalTime(name, position) else {
                throw OIDCError(.missingClaim, "the \"\(name)\" claim is missing")
            }
            return seconds
        }

        issuer = try requiredString("iss", claims.issuer)
        subject = try requiredString("sub", claims.subject)
        guard let audiencePosition = claims.audience else {
            throw OIDCError(.missingClaim, "the \"aud\" claim is missing")
        }
        switch members[audiencePosition].value {
        case .string(let single): audienceValue = .one(single)
        case .array(let list):
            var names: [String] = []
            for entry in list {
                guard let name = entry.stringValue else {
                    throw OIDCError(.invalidClaim, "the \"aud\" claim holds a non-string")
                }
                names.append(name)
            }
            guard !names.isEmpty else { throw OIDCError(.invalidClaim, "the \"aud\" claim is an empty list") }
            audienceValue = .several(names)
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

extension IDTokenClaims {
    /// The value of `aud`.
    private enum Audience: Sendable {
        case one(String)
        case several([String])
    }

    /// Whether `aud` names `clientID`.
    func audienceIncludes(_ clientID: String) -> Bool {
        switch audienceValue {
        case .one(let name): name == clientID
        case .several(let names): names.contains(clientID)
        }
    }

    /// Whether `aud` names more than one audience.
    var hasSeveralAudiences: Bool {
        if case .several(let names) = audienceValue { return names.count > 1 }
        return false
    }
}
