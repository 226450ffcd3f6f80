import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC

/// The JSON shape that `login` and `refresh` print (CLI contract).
enum SessionOutput {
    static func members(_ session: OIDCSession, userInfo: [String: JSONValue]?) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "id_token_claims": .object(session.claims.all), "token_type": .string(session.tokens.tokenType),
            "access_token_expires_at": session.tokens.accessTokenExpiresAt.map {
                .integer(Int64($0.timeIntervalSince1970))
            } ?? .null,
            "has_refresh_token": .bool(session.tokens.refreshToken != nil),
        ]
        if let userInfo { members["userinfo"] = .object(userInfo) }
        return members
    }

    static func summary(_ session: OIDCSession) -> String {
        "Logged in as \(session.claims.subject); refresh token: \(session.tokens.refreshToken == nil ? "no" : "yes")"
    }
}
