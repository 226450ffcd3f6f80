import SSOKitCore

/// The raw values of the claims ``IDTokenClaims`` types, gathered before they are checked, so that a token's members
/// are read once instead of hashed into a dictionary and looked up name by name.
struct StandardClaimValues {
    /// The names gathered.
    static let names = ["iss", "sub", "aud", "exp", "iat", "nbf", "auth_time", "nonce", "azp", "at_hash", "c_hash"]

    private(set) var issuer: JSONValue?
    private(set) var subject: JSONValue?
    private(set) var audience: JSONValue?
    private(set) var expiresAt: JSONValue?
    private(set) var issuedAt: JSONValue?
    private(set) var notBefore: JSONValue?
    private(set) var authTime: JSONValue?
    private(set) var nonce: JSONValue?
    private(set) var authorizedParty: JSONValue?
    private(set) var accessTokenHash: JSONValue?
    private(set) var codeHash: JSONValue?

    /// The standard names' keys, read once per member rather than once per comparison.
    private struct Keys {
        let iss = JSONNameKey("iss").bits
        let sub = JSONNameKey("sub").bits
        let aud = JSONNameKey("aud").bits
        let exp = JSONNameKey("exp").bits
        let iat = JSONNameKey("iat").bits
        let nbf = JSONNameKey("nbf").bits
        let authTime = JSONNameKey("auth_time").bits
        let nonce = JSONNameKey("nonce").bits
        let azp = JSONNameKey("azp").bits
        let atHash = JSONNameKey("at_hash").bits
        let cHash = JSONNameKey("c_hash").bits
    }
    private static let keys = Keys()

    /// Keeps the member's value when its name is a standard claim; ignores any other member.
    mutating func record(_ member: JSONMember) {
        if member.nameKey != .none {
            record(key: member.nameKey.bits, member.value)
        } else if let standard = Self.names.first(where: { $0 == member.name }) {
            // A name the parser did not key (escaped, long or not ASCII) is compared as `String` compares it.
            record(key: JSONNameKey(standard).bits, member.value)
        }
    }

    private mutating func record(key: UInt128, _ value: JSONValue) {
        let keys = Self.keys
        switch key {
        case keys.iss: issuer = value
        case keys.sub: subject = value
        case keys.aud: audience = value
        case keys.exp: expiresAt = value
        case keys.iat: issuedAt = value
        case keys.nbf: notBefore = value
        case keys.authTime: authTime = value
        case keys.nonce: nonce = value
        case keys.azp: authorizedParty = value
        case keys.atHash: accessTokenHash = value
        case keys.cHash: codeHash = value
        default: break
        }
    }
}
