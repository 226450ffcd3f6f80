import JWTKit
import SSOKitOIDC

/// SSOKit's client-assertion claims as a jwt-kit payload, so that jwt-kit, an independent JOSE implementation,
/// signs or verifies them in tests (SSOKit's API holds no jwt-kit type).
struct JWTKitClientAssertion: JWTPayload {
    var claims: ClientAssertionClaims

    init(_ claims: ClientAssertionClaims) { self.claims = claims }

    init(from decoder: any Decoder) throws { claims = try ClientAssertionClaims(from: decoder) }

    func encode(to encoder: any Encoder) throws { try claims.encode(to: encoder) }

    func verify(using algorithm: some JWTAlgorithm) throws {
        try ExpirationClaim(value: claims.expiresAt).verifyNotExpired()
    }
}
