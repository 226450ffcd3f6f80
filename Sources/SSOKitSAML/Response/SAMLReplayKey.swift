/// The one string under which a replay guard records an assertion ID from an issuer.
///
/// The issuer's length in UTF-8 bytes comes first, then a colon, the issuer and the assertion ID: every (issuer, ID)
/// pair gives a different key, with no separator that an issuer or ID could contain, and no NUL character (SQLite
/// and PostgreSQL text values cannot hold one reliably).
public enum SAMLReplayKey {
    /// The key for `assertionID` issued by `issuer`.
    public static func make(issuer: String, assertionID: String) -> String {
        "\(issuer.utf8.count):\(issuer)\(assertionID)"
    }
}
