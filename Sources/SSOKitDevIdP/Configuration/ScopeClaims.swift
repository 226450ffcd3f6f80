import SSOKitCore
import SSOKitOIDC

/// Which of a user's claims each scope releases, in the ID token and at UserInfo (OIDC Core §5.4).
public enum ScopeClaims {
    /// The scopes the IdP knows. `offline_access` is accepted but changes nothing: every code grant gets a
    /// refresh token.
    public static let supportedScopes: Set<String> = ["openid", "profile", "email", "groups", "offline_access"]

    /// The standard claims of each scope (OIDC Core §5.4), plus `groups`.
    static let claimsByScope: [String: [String]] = [
        "profile": [
            "name", "family_name", "given_name", "middle_name", "nickname", "preferred_username", "profile", "picture",
            "website", "gender", "birthdate", "zoneinfo", "locale", "updated_at",
        ],
        "email": ["email", "email_verified"],
        "groups": ["groups"],
    ]

    /// `sub` and the user's claims that `scopes` release; `preferred_username` defaults to the username.
    static func claims(of user: DevIdPUser, scopes: [String]) -> [String: JSONValue] {
        var result: [String: JSONValue] = ["sub": .string(user.subject)]
        for scope in scopes {
            for name in claimsByScope[scope] ?? [] {
                if let value = user.claims[name] { result[name] = value }
            }
        }
        if scopes.contains("profile"), result["preferred_username"] == nil {
            result["preferred_username"] = .string(user.username)
        }
        return result
    }
}
