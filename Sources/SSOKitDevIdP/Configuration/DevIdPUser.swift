import SSOKitCore
import SSOKitOIDC

/// A user who can sign in to the development IdP. The password is kept only as a salted scrypt hash.
public struct DevIdPUser: Sendable {
    /// The login name typed in the form (compared exactly).
    public let username: String
    /// The OIDC `sub` and SAML persistent NameID: stable for the user (default: the username).
    public let subject: String
    /// Claims released by scope (`name`, `email`, `email_verified`, `given_name`, `family_name`, `groups`, …);
    /// SAML attributes are made from the same values.
    public let claims: [String: JSONValue]
    private let password: PasswordHash

    /// Creates a user; the password is hashed here (scrypt at `passwordCost`) and not kept.
    ///
    /// - Throws: `invalid_configuration` for an empty, overlong or non-printable username or subject, an empty
    ///   password, or claims that try to set `sub` (use `subject`).
    public init(
        username: String, password: String, subject: String? = nil, claims: [String: JSONValue] = [:],
        passwordCost: DevIdPPasswordCost = .standard
    ) throws(DevIdPError) {
        let subject = subject ?? username
        for (role, value) in [("username", username), ("subject", subject)] {
            guard (1...255).contains(value.utf8.count), value.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else {
                throw DevIdPError(.invalidConfiguration, "a user's \(role) must be 1 to 255 printable characters")
            }
        }
        guard !password.isEmpty else {
            throw DevIdPError(.invalidConfiguration, "the user \(username) has no password")
        }
        guard claims["sub"] == nil else {
            throw DevIdPError(.invalidConfiguration, "the claims of \(username) set sub; give a subject instead")
        }
        self.username = username
        self.subject = subject
        self.claims = claims
        self.password = try PasswordHash(hashing: password, cost: passwordCost)
    }

    /// The built-in demo user `demo` ("Demo User", demo@example.com, group `staff`) with the given password.
    public static func demo(password: String) throws(DevIdPError) -> DevIdPUser {
        try DevIdPUser(
            username: "demo", password: password,
            claims: [
                "name": .string("Demo User"), "given_name": .string("Demo"), "family_name": .string("User"),
                "email": .string("demo@example.com"), "email_verified": .bool(true),
                "groups": .array([.string("staff")]),
            ])
    }

    /// Whether `candidate` is this user's password (constant-time comparison of the hashes).
    func hasPassword(_ candidate: String) -> Bool { password.matches(candidate) }
}
