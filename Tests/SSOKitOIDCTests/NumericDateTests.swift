import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

/// RFC 7519 §2: a NumericDate may carry a fraction; it is read and compared exactly.
@Suite("NumericDate")
struct NumericDateTests {
    @Test("integers, fractions and negative fractions split into whole seconds and an exact fraction")
    func reading() throws {
        let whole = try #require(NumericDate(.integer(1_767_225_600)))
        #expect(whole.wholeSeconds == 1_767_225_600 && whole.fraction == 0)
        let half = try #require(NumericDate(.number(1_767_225_600.5)))
        #expect(half.wholeSeconds == 1_767_225_600 && half.fraction == 0.5)
        let negative = try #require(NumericDate(.number(-1.25)))
        #expect(negative.wholeSeconds == -2 && negative.fraction == 0.75)
        #expect(NumericDate(1e300) == nil)
        #expect(NumericDate(-1e300) == nil)
        #expect(NumericDate(Double.nan) == nil)
        #expect(NumericDate(.string("1767225600")) == nil)
        #expect(NumericDate(.bool(true)) == nil)
        #expect(half.description == "1767225600.5")
        #expect(whole.description == "1767225600")
    }

    @Test("comparisons are exact and adding seconds saturates instead of overflowing")
    func ordering() throws {
        let base = NumericDate(seconds: 100)
        let later = try #require(NumericDate(100.25))
        #expect(base < later)
        #expect(later < NumericDate(seconds: 101))
        #expect(later.adding(1) == NumericDate(101.25))
        #expect(NumericDate(seconds: .max).adding(60) == NumericDate(seconds: .max))
        #expect(NumericDate(seconds: .min).adding(-60) == NumericDate(seconds: .min))
        #expect(NumericDate(Date(timeIntervalSince1970: 1_767_225_600.75)) == NumericDate(1_767_225_600.75))
        #expect(later.date == Date(timeIntervalSince1970: 100.25))
    }

    static func verify(_ changes: [String: String?], at seconds: Double, maxAge: Int64? = nil) async throws
        -> IDTokenClaims
    {
        let signer = try TestIdP.rsa()
        let keySet = try JSONWebKeySet(jsonBytes: Array(TestTokenSigner.jwks([signer]).utf8))
        let verifier = IDTokenVerifier(
            configuration: .init(
                issuer: TestIdP.issuer, clientID: TestIdP.clientID, clockSkew: 0),
            keys: StaticKeySource(keySet), clock: FixedClock(Date(timeIntervalSince1970: seconds)))
        return try await verifier.verify(
            try signer.sign(claims: TestIdP.claims(changes)), expecting: IDTokenExpectations(maxAge: maxAge))
    }

    @Test("fractional time claims are valid and judged against the unrounded clock")
    func verification() async throws {
        let now = Double(TestIdP.now)
        let claims = try await Self.verify(
            ["exp": "\(TestIdP.now).5", "iat": "\(TestIdP.now - 1).75", "nbf": "\(TestIdP.now).25"], at: now + 0.375)
        #expect(claims.expiresAt == NumericDate(now + 0.5))
        #expect(claims.notBefore == NumericDate(now + 0.25))

        let cases: [([String: String?], Double, Int64?, OIDCError.Code)] = [
            (["exp": "\(TestIdP.now).5"], now + 0.75, nil, .tokenExpired),
            (["exp": "\(TestIdP.now).5"], now + 0.5, nil, .tokenExpired),
            (["nbf": "\(TestIdP.now).5"], now + 0.25, nil, .tokenNotYetValid),
            (["iat": "\(TestIdP.now).5"], now + 0.25, nil, .issuedInFuture),
            (["auth_time": "\(TestIdP.now - 300).5"], now + 0.75, 300, .maxAgeExceeded),
        ]
        for (changes, clock, maxAge, code) in cases {
            let error = await #expect(throws: OIDCError.self) {
                _ = try await Self.verify(changes, at: clock, maxAge: maxAge)
            }
            #expect(error?.code == code, "\(changes) at \(clock)")
        }
    }
}
