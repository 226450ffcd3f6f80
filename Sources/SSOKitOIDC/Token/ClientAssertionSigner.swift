import Foundation
import JWTKit

/// The claims of a `private_key_jwt` client assertion (RFC 7523 §3).
public struct ClientAssertionClaims: Sendable, JWTPayload {
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

    /// Decodes the claims.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try container.decode(String.self, forKey: .iss)
        audience = try container.decode(String.self, forKey: .aud)
        issuedAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .iat))
        expiresAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .exp))
        jwtID = try container.decode(String.self, forKey: .jti)
    }

    /// Encodes the claims with Unix-second times.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientID, forKey: .iss)
        try container.encode(clientID, forKey: .sub)
        try container.encode(audience, forKey: .aud)
        try container.encode(Int64(issuedAt.timeIntervalSince1970), forKey: .iat)
        try container.encode(Int64(expiresAt.timeIntervalSince1970), forKey: .exp)
        try container.encode(jwtID, forKey: .jti)
    }

    /// Checks expiry when such an assertion is verified.
    public func verify(using algorithm: some JWTAlgorithm) throws {
        try ExpirationClaim(value: expiresAt).verifyNotExpired()
    }
}

/// Signs `private_key_jwt` client assertions with a key the caller controls (a file, an HSM, a Right's key).
public protocol ClientAssertionSigner: Sendable {
    /// Returns the compact JWS of `claims`.
    func sign(_ claims: ClientAssertionClaims) async throws -> String
}

/// A ``ClientAssertionSigner`` backed by a jwt-kit key collection holding the client's private key.
public struct JWTKitClientAssertionSigner: ClientAssertionSigner {
    private let keys: JWTKeyCollection
    private let keyID: String?

    /// Uses `keys` (which must hold a private key) and stamps `keyID` into the header when given.
    public init(keys: JWTKeyCollection, keyID: String? = nil) {
        self.keys = keys
        self.keyID = keyID
    }

    /// Signs with jwt-kit.
    public func sign(_ claims: ClientAssertionClaims) async throws -> String {
        try await keys.sign(claims, kid: keyID.map { JWKIdentifier(string: $0) })
    }
}
