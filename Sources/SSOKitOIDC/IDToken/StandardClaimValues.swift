import SSOKitCore

/// The raw values of the claims ``IDTokenClaims`` types, gathered before they are checked, so that a token's members
/// are read once instead of hashed into a dictionary and looked up name by name.
struct StandardClaimValues {
    /// The names gathered.
    static let names = ["iss", "sub", "aud", "exp", "iat", "nbf", "auth_time", "nonce", "azp", "at_hash", "c_hash"]

    private var issuer: JSONValue?
    private var subject: JSONValue?
    private var audience: JSONValue?
    private var expiresAt: JSONValue?
    private var issuedAt: JSONValue?
    private var notBefore: JSONValue?
    private var authTime: JSONValue?
    private var nonce: JSONValue?
    private var authorizedParty: JSONValue?
    private var accessTokenHash: JSONValue?
    private var codeHash: JSONValue?

    /// Keeps `value` when `name` is a standard claim; ignores any other name.
    mutating func record(_ name: String, _ value: JSONValue) {
        switch name {
        case "iss": issuer = value
        case "sub": subject = value
        case "aud": audience = value
        case "exp": expiresAt = value
        case "iat": issuedAt = value
        case "nbf": notBefore = value
        case "auth_time": authTime = value
        case "nonce": nonce = value
        case "azp": authorizedParty = value
        case "at_hash": accessTokenHash = value
        case "c_hash": codeHash = value
        default: break
        }
    }

    /// The value of the standard claim `name`, when the token has it.
    subscript(name: String) -> JSONValue? {
        switch name {
        case "iss": issuer
        case "sub": subject
        case "aud": audience
        case "exp": expiresAt
        case "iat": issuedAt
        case "nbf": notBefore
        case "auth_time": authTime
        case "nonce": nonce
        case "azp": authorizedParty
        case "at_hash": accessTokenHash
        case "c_hash": codeHash
        default: nil
        }
    }
}
