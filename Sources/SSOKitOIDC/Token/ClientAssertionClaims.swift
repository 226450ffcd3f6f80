import Foundation
import SSOKitCore

/// The claims of a `private_key_jwt` client assertion (RFC 7523 §3).
public struct ClientAssertionClaims: Sendable, Hashable, Codable {
    /// `iss` and `sub`: the client ID.
    public var clientID: String
    /// `aud`: the token endpoint URL.
    public var audience: String
    /// `iat`.
    public var issuedAt: Date
    /// `exp`, shortly after `iat`.
    public var expiresAt: Date
    /// `jti`, unique per assertion so the provider can refuse replays.
    public var jwtID: String

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, iat, exp, jti
    }

    /// Creates the claims.
    public init(clientID: String, audience: String, issuedAt: Date, expiresAt: Date, jwtID: String) {
        self.clientID = clientID
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.jwtID = jwtID
    }

    /// The JWS payload as SSOKit signs it: `iss`, `sub`, `aud`, `jti`, and `iat` and `exp` in whole Unix seconds.
    public var json: JSONValue {
        .object([
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience), "jti": .string(jwtID),
            "iat": .integer(Int64(issuedAt.timeIntervalSince1970.rounded(.down))),
            "exp": .integer(Int64(expiresAt.timeIntervalSince1970.rounded(.down))),
        ])
    }

    /// Decodes the claims (`iat` and `exp` as Unix seconds).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try container.decode(String.self, forKey: .iss)
        audience = try container.decode(String.self, forKey: .aud)
        issuedAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .iat))
        expiresAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .exp))
        jwtID = try container.decode(String.self, forKey: .jti)
    }

    /// Encodes the claims as ``json`` holds them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientID, forKey: .iss)
        try container.encode(clientID, forKey: .sub)
        try container.encode(audience, forKey: .aud)
        try container.encode(Int64(issuedAt.timeIntervalSince1970.rounded(.down)), forKey: .iat)
        try container.encode(Int64(expiresAt.timeIntervalSince1970.rounded(.down)), forKey: .exp)
        try container.encode(jwtID, forKey: .jti)
    }
}
