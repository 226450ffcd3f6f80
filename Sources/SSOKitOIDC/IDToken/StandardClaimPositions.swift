import SSOKitCore

/// Where in a token's members the claims ``IDTokenClaims`` types are, found in one pass over the members instead of
/// hashing every name into a dictionary and looking each standard name up. Positions, not values: the struct stays
/// trivially copyable, and each value is read once, where it is checked.
struct StandardClaimPositions {
    /// The names located.
    static let names = ["iss", "sub", "aud", "exp", "iat", "nbf", "auth_time", "nonce", "azp", "at_hash", "c_hash"]

    private(set) var issuer: Int?
    private(set) var subject: Int?
    private(set) var audience: Int?
    private(set) var expiresAt: Int?
    private(set) var issuedAt: Int?
    private(set) var notBefore: Int?
    private(set) var authTime: Int?
    private(set) var nonce: Int?
    private(set) var authorizedParty: Int?
    private(set) var accessTokenHash: Int?
    private(set) var codeHash: Int?

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

    /// Locates the standard claims among `members` (whose names are unique: the parser refuses duplicates).
    init(_ members: [JSONMember]) {
        for position in members.indices {
            let key = members[position].nameKey.bits
            if key != 0 {
                record(key: key, at: position)
            } else if let standard = Self.names.first(where: { $0 == members[position].name }) {
                // A name the parser did not key (escaped, long or not ASCII) is compared as `String` compares it.
                record(key: JSONNameKey(standard).bits, at: position)
            }
        }
    }

    private mutating func record(key: UInt128, at position: Int) {
        let keys = Self.keys
        switch key {
        case keys.iss: issuer = position
        case keys.sub: subject = position
        case keys.aud: audience = position
        case keys.exp: expiresAt = position
        case keys.iat: issuedAt = position
        case keys.nbf: notBefore = position
        case keys.authTime: authTime = position
        case keys.nonce: nonce = position
        case keys.azp: authorizedParty = position
        case keys.atHash: accessTokenHash = position
        case keys.cHash: codeHash = position
        default: break
        }
    }
}
