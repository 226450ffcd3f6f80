import Crypto
import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Synchronization
import Testing

@Suite("IDTokenVerifier")
struct IDTokenVerifierTests {
    enum KeyKind: String, CaseIterable, Sendable {
        case rsa, p256, ed25519
    }

    static let p256 = TestTokenSigner.p256(keyID: "p256-1")
    static let ed25519 = TestTokenSigner.ed25519(keyID: "ed-1")

    static func signer(_ kind: KeyKind) throws -> TestTokenSigner {
        switch kind {
        case .rsa: try TestIdP.rsa()
        case .p256: p256
        case .ed25519: ed25519
        }
    }

    /// A verifier over a fixed key set of `signers`, at ``TestIdP/now`` unless another clock is given.
    static func verifier(
        _ signers: [TestTokenSigner], clock: any SSOKitClock = FixedClock(unixSeconds: TestIdP.now),
        configure: (inout IDTokenVerifier.Configuration) -> Void = { _ in }
    ) throws -> IDTokenVerifier {
        var configuration = IDTokenVerifier.Configuration(issuer: TestIdP.issuer, clientID: TestIdP.clientID)
        configure(&configuration)
        let keySet = try JSONWebKeySet(jsonBytes: Array(TestTokenSigner.jwks(signers).utf8))
        return IDTokenVerifier(configuration: configuration, keys: StaticKeySource(keySet), clock: clock)
    }

    static func allSigners() throws -> [TestTokenSigner] {
        try KeyKind.allCases.map(signer)
    }

    static let expectNonce = IDTokenExpectations(nonce: TestIdP.nonce)

    // MARK: - Success

    @Test("a valid token verifies with each key type", arguments: KeyKind.allCases)
    func validForEachKeyType(_ kind: KeyKind) async throws {
        let signer = try Self.signer(kind)
        let token = try signer.sign(claims: TestIdP.claims())
        let claims = try await Self.verifier(Self.allSigners()).verify(token, expecting: Self.expectNonce)
        #expect(claims.issuer == TestIdP.issuer)
        #expect(claims.subject == TestIdP.subject)
        #expect(claims.audience == [TestIdP.clientID])
        #expect(claims.expiresAt == NumericDate(seconds: TestIdP.now + 3600))
        #expect(claims.issuedAt == NumericDate(seconds: TestIdP.now - 10))
        #expect(claims.authTime == NumericDate(seconds: TestIdP.now - 30))
        #expect(claims.nonce == TestIdP.nonce)
        #expect(claims.notBefore == nil)
        #expect(claims.all["sub"] == .string(TestIdP.subject))
    }

    @Test(
        "every RSA algorithm verifies with an RSA key",
        arguments: ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"])
    func rsaAlgorithms(_ algorithm: String) async throws {
        let signer = try TestIdP.rsa()
        let token = try signer.sign(claims: TestIdP.claims(), algorithm: algorithm)
        let claims = try await Self.verifier([signer]).verify(token, expecting: Self.expectNonce)
        #expect(claims.subject == TestIdP.subject)
    }

    struct ValidCase: Sendable, CustomStringConvertible {
        let description: String
        let changes: [String: String?]
        var expectations = IDTokenExpectations(nonce: TestIdP.nonce)
    }

    static let validCases: [ValidCase] = [
        ValidCase(description: "exp passed but within the leeway", changes: ["exp": "\(TestIdP.now - 30)"]),
        ValidCase(description: "nbf in the past", changes: ["nbf": "\(TestIdP.now - 100)"]),
        ValidCase(description: "nbf ahead but within the leeway", changes: ["nbf": "\(TestIdP.now + 30)"]),
        ValidCase(description: "iat ahead but within the leeway", changes: ["iat": "\(TestIdP.now + 30)"]),
        ValidCase(description: "aud as a one-element list", changes: ["aud": #"["ssokit-client"]"#]),
        ValidCase(
            description: "several audiences with azp naming this client",
            changes: ["aud": #"["ssokit-client","api"]"#, "azp": TestIdP.quoted(TestIdP.clientID)]),
        ValidCase(
            description: "azp equal to the client with one audience", changes: ["azp": TestIdP.quoted(TestIdP.clientID)]
        ),
        ValidCase(
            description: "max_age satisfied", changes: [:],
            expectations: IDTokenExpectations(nonce: TestIdP.nonce, maxAge: 300)),
        ValidCase(
            description: "no nonce expected, token has none", changes: ["nonce": nil],
            expectations: IDTokenExpectations()),
        ValidCase(
            description: "no nonce expected, token carries one", changes: [:], expectations: IDTokenExpectations()),
        ValidCase(
            description: "at_hash present but no access token to compare", changes: ["at_hash": #""AAAA""#]),
        ValidCase(
            description: "access token given but token has no at_hash", changes: [:],
            expectations: IDTokenExpectations(nonce: TestIdP.nonce, accessToken: "at", authorizationCode: "code")),
        ValidCase(
            description: "exp written as a whole floating-point number", changes: ["exp": "\(TestIdP.now + 60).0"]),
        ValidCase(description: "unknown extra claims", changes: ["email": #""a@example.com""#, "groups": "[1,{}]"]),
    ]

    @Test("valid tokens in edge cases", arguments: validCases)
    func validCasesVerify(_ testCase: ValidCase) async throws {
        let signer = try TestIdP.rsa()
        let token = try signer.sign(claims: TestIdP.claims(testCase.changes))
        _ = try await Self.verifier([signer]).verify(token, expecting: testCase.expectations)
    }

    @Test("at_hash and c_hash use the hash of the token's algorithm", arguments: KeyKind.allCases)
    func correctHashes(_ kind: KeyKind) async throws {
        let signer = try Self.signer(kind)
        let algorithm: JWSAlgorithm =
            switch kind {
            case .rsa: .rs256
            case .p256: .es256
            case .ed25519: .eddsa
            }
        let accessToken = "ya29.access-token-value"
        let code = "SplxlOBeZQQYbYS6WxSbIA"
        let token = try signer.sign(
            claims: TestIdP.claims([
                "at_hash": TestIdP.quoted(algorithm.halfHash(of: accessToken)),
                "c_hash": TestIdP.quoted(algorithm.halfHash(of: code)),
            ]))
        let expectations = IDTokenExpectations(nonce: TestIdP.nonce, accessToken: accessToken, authorizationCode: code)
        let claims = try await Self.verifier(Self.allSigners()).verify(token, expecting: expectations)
        #expect(claims.accessTokenHash == algorithm.halfHash(of: accessToken))
        #expect(claims.codeHash == algorithm.halfHash(of: code))
    }

    @Test("OIDC Core's at_hash example for RS256")
    func atHashExample() {
        // OIDC Core 1.0, Appendix A.3/A.4: access token "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y" → at_hash.
        #expect(
            JWSAlgorithm.rs256.halfHash(of: "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y") == "77QmUPtjPfzWtF2AnpK9RQ")
    }

    // MARK: - Claim rules

    struct ClaimCase: Sendable, CustomStringConvertible {
        let description: String
        let changes: [String: String?]
        var expectations = IDTokenExpectations(nonce: TestIdP.nonce)
        let code: OIDCError.Code
    }

    static let claimCases: [ClaimCase] = [
        ClaimCase(description: "other issuer", changes: ["iss": #""https://evil.example.com""#], code: .issuerMismatch),
        ClaimCase(
            description: "issuer with a trailing slash", changes: ["iss": #""https://idp.example.com/""#],
            code: .issuerMismatch),
        ClaimCase(
            description: "issuer differing in case", changes: ["iss": #""https://IDP.example.com""#],
            code: .issuerMismatch),
        ClaimCase(description: "other audience", changes: ["aud": #""another-client""#], code: .audienceMismatch),
        ClaimCase(
            description: "audience list without this client", changes: ["aud": #"["a","b"]"#], code: .audienceMismatch),
        ClaimCase(
            description: "several audiences without azp", changes: ["aud": #"["ssokit-client","api"]"#],
            code: .authorizedPartyMismatch),
        ClaimCase(
            description: "azp naming another client", changes: ["azp": #""another-client""#],
            code: .authorizedPartyMismatch),
        ClaimCase(
            description: "several audiences, azp naming another client",
            changes: ["aud": #"["ssokit-client","api"]"#, "azp": #""api""#], code: .authorizedPartyMismatch),
        ClaimCase(
            description: "expired beyond the leeway", changes: ["exp": "\(TestIdP.now - 61)"], code: .tokenExpired),
        ClaimCase(description: "expired long ago", changes: ["exp": "\(TestIdP.now - 86_400)"], code: .tokenExpired),
        ClaimCase(description: "nbf in the future", changes: ["nbf": "\(TestIdP.now + 120)"], code: .tokenNotYetValid),
        ClaimCase(description: "iat in the future", changes: ["iat": "\(TestIdP.now + 120)"], code: .issuedInFuture),
        ClaimCase(description: "other nonce", changes: ["nonce": #""another-nonce""#], code: .nonceMismatch),
        ClaimCase(description: "nonce missing", changes: ["nonce": nil], code: .nonceMismatch),
        ClaimCase(
            description: "nonce differing by one character", changes: ["nonce": #""n-0S6_WzA2Mk""#],
            code: .nonceMismatch),
        ClaimCase(
            description: "auth_time older than max_age", changes: ["auth_time": "\(TestIdP.now - 1000)"],
            expectations: IDTokenExpectations(nonce: TestIdP.nonce, maxAge: 300), code: .maxAgeExceeded),
        ClaimCase(
            description: "max_age requested, auth_time missing", changes: ["auth_time": nil],
            expectations: IDTokenExpectations(nonce: TestIdP.nonce, maxAge: 300), code: .missingClaim),
        ClaimCase(
            description: "at_hash of another access token",
            changes: ["at_hash": TestIdP.quoted(JWSAlgorithm.rs256.halfHash(of: "other-access-token"))],
            expectations: IDTokenExpectations(nonce: TestIdP.nonce, accessToken: "access-token"),
            code: .accessTokenHashMismatch),
        ClaimCase(
            description: "at_hash computed with SHA-512 for an RS256 token",
            changes: ["at_hash": TestIdP.quoted(JWSAlgorithm.rs512.halfHash(of: "access-token"))],
            expectations: IDTokenExpectations(nonce: TestIdP.nonce, accessToken: "access-token"),
            code: .accessTokenHashMismatch),
        ClaimCase(
            description: "c_hash of another code",
            changes: ["c_hash": TestIdP.quoted(JWSAlgorithm.rs256.halfHash(of: "other-code"))],
            expectations: IDTokenExpectations(nonce: TestIdP.nonce, authorizationCode: "the-code"),
            code: .codeHashMismatch),
        ClaimCase(description: "iss missing", changes: ["iss": nil], code: .missingClaim),
        ClaimCase(description: "sub missing", changes: ["sub": nil], code: .missingClaim),
        ClaimCase(description: "aud missing", changes: ["aud": nil], code: .missingClaim),
        ClaimCase(description: "exp missing", changes: ["exp": nil], code: .missingClaim),
        ClaimCase(description: "iat missing", changes: ["iat": nil], code: .missingClaim),
        ClaimCase(description: "exp as a string", changes: ["exp": "\"\(TestIdP.now + 3600)\""], code: .invalidClaim),
        ClaimCase(description: "exp beyond 64-bit seconds", changes: ["exp": "1e300"], code: .invalidClaim),
        ClaimCase(description: "sub as a number", changes: ["sub": "248289761001"], code: .invalidClaim),
        ClaimCase(description: "aud as a number", changes: ["aud": "1"], code: .invalidClaim),
        ClaimCase(description: "aud as an empty list", changes: ["aud": "[]"], code: .invalidClaim),
        ClaimCase(
            description: "aud list holding a number", changes: ["aud": #"["ssokit-client",1]"#], code: .invalidClaim),
        ClaimCase(description: "nonce as a number", changes: ["nonce": "5"], code: .invalidClaim),
        ClaimCase(description: "auth_time as a string", changes: ["auth_time": #""yesterday""#], code: .invalidClaim),
        ClaimCase(description: "nbf as a boolean", changes: ["nbf": "true"], code: .invalidClaim),
    ]

    @Test("each broken claim rule yields its error code", arguments: claimCases)
    func claimRule(_ testCase: ClaimCase) async throws {
        let signer = try TestIdP.rsa()
        let token = try signer.sign(claims: TestIdP.claims(testCase.changes))
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier([signer]).verify(token, expecting: testCase.expectations)
        }
        #expect(error?.code == testCase.code, "\(testCase.description): \(String(describing: error))")
    }

    @Test("the clock skew is configurable")
    func configurableLeeway() async throws {
        let signer = try TestIdP.rsa()
        let token = try signer.sign(claims: TestIdP.claims(["exp": "\(TestIdP.now - 30)"]))
        let strict = try Self.verifier([signer]) { $0.clockSkew = 0 }
        let error = await #expect(throws: OIDCError.self) { _ = try await strict.verify(token) }
        #expect(error?.code == .tokenExpired)
        let lenient = try Self.verifier([signer]) { $0.clockSkew = 120 }
        _ = try await lenient.verify(token)
    }

    @Test("a claim failure names its check; a failure before the claim checks names none")
    func failureNamesItsRule() async throws {
        let signer = try TestIdP.rsa()
        let verifier = try Self.verifier([signer])
        let expired = try signer.sign(claims: TestIdP.claims(["exp": "\(TestIdP.now - 120)"]))
        let error = await #expect(throws: OIDCError.self) { _ = try await verifier.verify(expired) }
        #expect(error?.code == .tokenExpired)
        #expect(error?.rule == IDTokenCheck.expiry.name)
        let foreign = try signer.sign(claims: TestIdP.claims(["aud": "\"another-client\""]))
        let mismatch = await #expect(throws: OIDCError.self) { _ = try await verifier.verify(foreign) }
        #expect(mismatch?.rule == "audience")
        let other = try TestIdP.rsa2()
        let forged = try other.sign(claims: TestIdP.claims())
        let unsigned = await #expect(throws: OIDCError.self) { _ = try await verifier.verify(forged) }
        #expect(unsigned?.rule == nil)
    }

    @Test("extreme but well-formed time claims are judged without overflowing")
    func extremeTimes() async throws {
        let signer = try TestIdP.rsa()
        let verifier = try Self.verifier([signer])
        let farFuture = try signer.sign(claims: TestIdP.claims(["exp": "\(Int64.max)"]))
        _ = try await verifier.verify(farFuture, expecting: Self.expectNonce)
        let farPast = try signer.sign(claims: TestIdP.claims(["nbf": "\(Int64.min)", "iat": "\(Int64.min)"]))
        _ = try await verifier.verify(farPast, expecting: Self.expectNonce)
        let longAgo = try signer.sign(claims: TestIdP.claims(["exp": "\(Int64.min)"]))
        let error = await #expect(throws: OIDCError.self) { _ = try await verifier.verify(longAgo) }
        #expect(error?.code == .tokenExpired)
        let futureAuth = try signer.sign(claims: TestIdP.claims(["auth_time": "\(Int64.max)"]))
        _ = try await verifier.verify(futureAuth, expecting: IDTokenExpectations(nonce: TestIdP.nonce, maxAge: 300))
    }

    // MARK: - Refresh (OIDC Core §12.2)

    struct RefreshCase: Sendable, CustomStringConvertible {
        let description: String
        let changes: [String: String?]
        let code: OIDCError.Code?
    }

    static let refreshCases: [RefreshCase] = [
        RefreshCase(description: "same iss, sub, aud", changes: ["nonce": nil, "iat": "\(TestIdP.now)"], code: nil),
        RefreshCase(description: "auth_time omitted", changes: ["nonce": nil, "auth_time": nil], code: nil),
        RefreshCase(
            description: "sub changed", changes: ["nonce": nil, "sub": #""someone-else""#], code: .refreshClaimsMismatch
        ),
        RefreshCase(
            description: "aud changed",
            changes: ["nonce": nil, "aud": #"["ssokit-client","api"]"#, "azp": #""ssokit-client""#],
            code: .refreshClaimsMismatch),
        RefreshCase(
            description: "azp added", changes: ["nonce": nil, "azp": #""ssokit-client""#], code: .refreshClaimsMismatch),
        RefreshCase(
            description: "auth_time changed", changes: ["nonce": nil, "auth_time": "\(TestIdP.now - 5)"],
            code: .refreshClaimsMismatch),
    ]

    @Test("a refreshed ID token must keep the original's identity claims", arguments: refreshCases)
    func refreshConsistency(_ testCase: RefreshCase) async throws {
        let signer = try TestIdP.rsa()
        let verifier = try Self.verifier([signer])
        let original = try await verifier.verify(try signer.sign(claims: TestIdP.claims()), expecting: Self.expectNonce)
        let refreshed = try signer.sign(claims: TestIdP.claims(testCase.changes))
        let expectations = IDTokenExpectations(previousClaims: original)
        if let code = testCase.code {
            let error = await #expect(throws: OIDCError.self) {
                _ = try await verifier.verify(refreshed, expecting: expectations)
            }
            #expect(error?.code == code)
        } else {
            _ = try await verifier.verify(refreshed, expecting: expectations)
        }
    }

    // MARK: - Size, structure, algorithm and header

    @Test("a 70 KB garbage string is refused as too large before it is parsed")
    func garbageTooLarge() async throws {
        let verifier = try Self.verifier([try TestIdP.rsa()])
        for garbage in [
            String(repeating: "A", count: 70_000), String(repeating: "%.", count: 35_000),
            String(repeating: "é", count: 35_000),
        ] {
            let error = await #expect(throws: OIDCError.self) { _ = try await verifier.verify(garbage) }
            #expect(error?.code == .tokenTooLarge)
        }
        // The same kind of garbage under the cap is judged malformed: the size check really comes first.
        let small = await #expect(throws: OIDCError.self) {
            _ = try await verifier.verify(String(repeating: "A", count: 1000))
        }
        #expect(small?.code == .malformedToken)
    }

    @Test("a validly signed token over the cap is refused; one at the cap is accepted")
    func sizeCapBoundary() async throws {
        let signer = try TestIdP.rsa()
        let padding = String(repeating: "x", count: 70_000)
        let huge = try signer.sign(claims: TestIdP.claims(["padding": TestIdP.quoted(padding)]))
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.verifier([signer]).verify(huge) }
        #expect(error?.code == .tokenTooLarge)

        let token = try signer.sign(claims: TestIdP.claims())
        let size = token.utf8.count
        _ = try await Self.verifier([signer]) { $0.maximumTokenBytes = size }.verify(token)
        let over = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier([signer]) { $0.maximumTokenBytes = size - 1 }.verify(token)
        }
        #expect(over?.code == .tokenTooLarge)
    }

    @Test(
        "structurally broken tokens are malformed",
        arguments: [
            "", ".", "..", "a.b", "a.b.c.d", "abc", ".eyJ9.", "eyJhbGciOiJSUzI1NiJ9..sig", "e30.e30.AA=",
            "!!!.e30.AA", "e30.e30.AA",  // "{}" header has no alg
            "bnVsbA.e30.AA",  // header "null"
            "eyJhbGciOjF9.e30.AA",  // alg not a string
            "eyJhbGciOiJSUzI1NiIsImtpZCI6MX0.e30.AA",  // kid not a string
            "eyJhbGciOiJSUzI1NiIsImFsZyI6Im5vbmUifQ.e30.AA",  // duplicate alg
        ])
    func malformed(_ token: String) async throws {
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier([try TestIdP.rsa()]).verify(token)
        }
        #expect(error?.code == .malformedToken, "\(token): \(String(describing: error))")
    }

    @Test("a payload that is not a JSON object is malformed even when the signature verifies")
    func payloadNotObject() async throws {
        let signer = try TestIdP.rsa()
        let token = try signer.sign(claims: "[1,2,3]")
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.verifier([signer]).verify(token) }
        #expect(error?.code == .malformedToken)
    }

    @Test("alg none is refused in any spelling", arguments: ["none", "None", "NONE", "nOnE"])
    func algNone(_ name: String) async throws {
        let header = Base64URL.encode(Array(#"{"alg":"\#(name)","kid":"rsa-1","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(TestIdP.claims().utf8))
        for token in ["\(header).\(payload).", "\(header).\(payload).AA"] {
            let error = await #expect(throws: OIDCError.self) {
                _ = try await Self.verifier([try TestIdP.rsa()]).verify(token)
            }
            #expect(error?.code == .unsupportedAlgorithm)
        }
    }

    @Test(
        "HS256 signed with the provider's public key (key confusion) is refused",
        arguments: ["HS256", "HS384", "HS512"])
    func hmacKeyConfusion(_ name: String) async throws {
        let signer = try TestIdP.rsa()
        let input =
            Base64URL.encode(Array(#"{"alg":"\#(name)","kid":"rsa-1"}"#.utf8)) + "."
            + Base64URL.encode(Array(TestIdP.claims().utf8))
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array(input.utf8), using: SymmetricKey(data: Array(signer.publicJWK.utf8)))
        let token = input + "." + Base64URL.encode(Array(mac))
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.verifier([signer]).verify(token) }
        #expect(error?.code == .unsupportedAlgorithm)
    }

    @Test("an algorithm outside the allow-list is refused")
    func algorithmNotAllowed() async throws {
        let signer = try TestIdP.rsa()
        let verifier = try Self.verifier([signer]) { $0.allowedAlgorithms = [.es256, .ps256] }
        let error = await #expect(throws: OIDCError.self) {
            _ = try await verifier.verify(try signer.sign(claims: TestIdP.claims()))
        }
        #expect(error?.code == .unsupportedAlgorithm)
        // PS256 is allowed and the same key can do it.
        _ = try await verifier.verify(try signer.sign(claims: TestIdP.claims(), algorithm: "PS256"))
        // Names are case-sensitive.
        let lower = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier([signer]).verify(try signer.sign(claims: TestIdP.claims(), algorithm: "rs256"))
        }
        #expect(lower?.code == .unsupportedAlgorithm)
    }

    @Test(
        "any crit header is refused",
        arguments: [
            #","crit":["urn:example:ext"],"urn:example:ext":true"#, #","crit":["exp"],"exp":1"#, #","crit":[]"#,
            #","crit":"b64""#,
        ])
    func criticalHeader(_ extraHeader: String) async throws {
        let signer = try TestIdP.rsa()
        let token = try signer.sign(claims: TestIdP.claims(), extraHeader: extraHeader)
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.verifier([signer]).verify(token) }
        #expect(error?.code == .unsupportedCriticalHeader)
    }

    // MARK: - Keys

    @Test("a token without kid is refused when the set has several keys")
    func missingKidSeveralKeys() async throws {
        let signer = Self.p256
        let token = try signRaw(header: #"{"alg":"ES256","typ":"JWT"}"#, claims: TestIdP.claims(), with: signer)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier(Self.allSigners()).verify(token)
        }
        #expect(error?.code == .keyNotFound)
        // With the signer's key alone in the set, the same token verifies.
        _ = try await Self.verifier([signer]).verify(token)
    }

    @Test("an unknown kid with a fixed key set is key_not_found")
    func unknownKid() async throws {
        let token = try TestTokenSigner.p256(keyID: "unknown").sign(claims: TestIdP.claims())
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier(Self.allSigners()).verify(token)
        }
        #expect(error?.code == .keyNotFound)
    }

    @Test("a kid whose key cannot do the header's algorithm is key_not_found")
    func kidAlgorithmMismatch() async throws {
        // Signed with the P-256 key but naming the RSA key's kid.
        let token = try signRaw(header: #"{"alg":"ES256","kid":"rsa-1"}"#, claims: TestIdP.claims(), with: Self.p256)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier(Self.allSigners()).verify(token)
        }
        #expect(error?.code == .keyNotFound)
    }

    @Test("a signature by another key under a known kid is invalid_signature")
    func wrongKeySameKid() async throws {
        let token = try signRaw(
            header: #"{"alg":"RS256","kid":"rsa-1"}"#, claims: TestIdP.claims(), with: try TestIdP.rsa2())
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier([try TestIdP.rsa()]).verify(token)
        }
        #expect(error?.code == .invalidSignature)
    }

    @Test("tampering with any segment breaks the signature", arguments: KeyKind.allCases)
    func tampered(_ kind: KeyKind) async throws {
        let signer = try Self.signer(kind)
        let verifier = try Self.verifier([signer])
        let token = try signer.sign(claims: TestIdP.claims())
        let parts = token.split(separator: ".").map(String.init)
        let forgedPayload = Base64URL.encode(Array(TestIdP.claims(["sub": #""admin""#]).utf8))
        let signature = try #require(Base64URL.decode(parts[2]))
        var flipped = signature
        flipped[flipped.count / 2] ^= 0x01
        for forged in [
            "\(parts[0]).\(forgedPayload).\(parts[2])",
            "\(parts[0]).\(parts[1]).\(Base64URL.encode(flipped))",
            "\(parts[0]).\(parts[1]).\(Base64URL.encode(signature.dropLast()))",
            "\(parts[0]).\(parts[1]).",
        ] {
            let error = await #expect(throws: OIDCError.self) { _ = try await verifier.verify(forged) }
            #expect(error?.code == .invalidSignature)
        }
    }

    @Test("keys offered in the header (jwk, jku, x5c) are never used")
    func headerKeysIgnored() async throws {
        let attacker = Self.ed25519
        let token = try attacker.sign(
            claims: TestIdP.claims(),
            extraHeader: #","jwk":\#(attacker.publicJWK),"jku":"https://evil.example.com/jwks""#)
        // The attacker's kid "ed-1" is not in a set holding only the RSA key.
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier([try TestIdP.rsa()]).verify(token)
        }
        #expect(error?.code == .keyNotFound)
    }

    @Test("the standard checks run in the documented order and can be replaced")
    func customChecks() async throws {
        #expect(
            IDTokenCheck.standard.map(\.name) == [
                "issuer", "audience", "authorized_party", "expiry", "not_before", "issued_at", "nonce", "max_age",
                "at_hash",
                "c_hash", "refresh_consistency",
            ])
        let signer = try TestIdP.rsa()
        let expired = try signer.sign(claims: TestIdP.claims(["exp": "\(TestIdP.now - 1000)"]))
        let noExpiry = try Self.verifier([signer]) { configuration in
            configuration.checks = IDTokenCheck.standard.filter { $0.name != "expiry" }
        }
        _ = try await noExpiry.verify(expired)
        let seen = Shared<[String]>([])
        let recording = IDTokenCheck(name: "record") { claims, context in
            seen.withLock { $0.append("\(claims.subject)@\(context.now)/\(context.algorithm)") }
        }
        let custom = try Self.verifier([signer]) { $0.checks = IDTokenCheck.standard + [recording] }
        _ = try await custom.verify(try signer.sign(claims: TestIdP.claims()))
        #expect(seen.value == ["\(TestIdP.subject)@\(TestIdP.now)/RS256"])
    }
}

// MARK: - JWKS cache and key rotation

@Suite("JWKSCache and key rotation")
struct JWKSCacheTests {
    /// A JWKS endpoint whose answer the test changes.
    final class JWKSEndpoint: Sendable {
        let body: Shared<String>
        let failing: Shared<Bool>
        let transport: InMemoryHTTPTransport

        init(_ signers: [TestTokenSigner]) {
            let body = Shared(TestTokenSigner.jwks(signers))
            let failing = Shared(false)
            self.body = body
            self.failing = failing
            transport = InMemoryHTTPTransport { request in
                guard request.urlWithoutQuery == TestIdP.jwksURL else {
                    return .init(response: .init(status: .notFound), body: [])
                }
                if failing.value { return .text("<html>oops</html>", status: .internalServerError) }
                return .json(body.value)
            }
        }

        func publish(_ signers: [TestTokenSigner]) { body.value = TestTokenSigner.jwks(signers) }
    }

    static func cache(
        _ endpoint: JWKSEndpoint, clock: MutableClock,
        configuration: JWKSCache.Configuration = .init(minimumRefreshInterval: 60, maximumAge: 3600)
    ) throws -> JWKSCache {
        try JWKSCache(
            url: try #require(URL(string: TestIdP.jwksURL)), transport: endpoint.transport, clock: clock,
            configuration: configuration)
    }

    static func verifier(_ cache: JWKSCache, clock: MutableClock) -> IDTokenVerifier {
        IDTokenVerifier(
            configuration: .init(issuer: TestIdP.issuer, clientID: TestIdP.clientID), keys: cache, clock: clock)
    }

    static func token(_ signer: TestTokenSigner, clock: MutableClock) throws -> String {
        try signer.sign(claims: TestIdP.claims(now: clock.unixSeconds))
    }

    @Test("an unknown kid triggers exactly one refetch; a second one within the interval does not")
    func rotation() async throws {
        let keyA = try TestIdP.rsa()
        let keyB = TestTokenSigner.p256(keyID: "key-b")
        let keyC = TestTokenSigner.ed25519(keyID: "key-c")
        let clock = MutableClock()
        let endpoint = JWKSEndpoint([keyA])
        let cache = try Self.cache(endpoint, clock: clock)
        let verifier = Self.verifier(cache, clock: clock)

        _ = try await verifier.verify(try Self.token(keyA, clock: clock))
        #expect(await cache.fetchCount == 1)
        _ = try await verifier.verify(try Self.token(keyA, clock: clock))
        #expect(await cache.fetchCount == 1, "a known kid is served from the cache")

        // The provider rotates in key B; a token with its kid arrives two minutes later.
        endpoint.publish([keyA, keyB])
        clock.advance(by: 120)
        let claims = try await verifier.verify(try Self.token(keyB, clock: clock))
        #expect(claims.subject == TestIdP.subject)
        #expect(await cache.fetchCount == 2)
        #expect(endpoint.transport.requests.count == 2)

        // Key C appears right after: within the minimum interval there is no refetch.
        endpoint.publish([keyA, keyB, keyC])
        clock.advance(by: 10)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await verifier.verify(try Self.token(keyC, clock: clock))
        }
        #expect(error?.code == .keyNotFound)
        #expect(await cache.fetchCount == 2)
        #expect(endpoint.transport.requests.count == 2)

        // Once the interval has passed, the next unknown kid refetches again.
        clock.advance(by: 60)
        _ = try await verifier.verify(try Self.token(keyC, clock: clock))
        #expect(await cache.fetchCount == 3)
    }

    @Test("a kid still unknown after the refetch is key_not_found")
    func unknownAfterRefetch() async throws {
        let clock = MutableClock()
        let endpoint = JWKSEndpoint([try TestIdP.rsa()])
        let cache = try Self.cache(endpoint, clock: clock)
        let verifier = Self.verifier(cache, clock: clock)
        _ = try await cache.loadKeys()
        clock.advance(by: 61)
        let stranger = TestTokenSigner.p256(keyID: "stranger")
        let error = await #expect(throws: OIDCError.self) {
            _ = try await verifier.verify(try Self.token(stranger, clock: clock))
        }
        #expect(error?.code == .keyNotFound)
        #expect(await cache.fetchCount == 2)
    }

    @Test("a failing JWKS endpoint after a good fetch keeps the last good set")
    func failureKeepsLastGoodSet() async throws {
        let signer = try TestIdP.rsa()
        let clock = MutableClock()
        let endpoint = JWKSEndpoint([signer])
        let cache = try Self.cache(endpoint, clock: clock)
        let verifier = Self.verifier(cache, clock: clock)

        let first = try await cache.loadKeys()
        #expect(first.keys.count == 1)
        #expect(await cache.fetchCount == 1)

        endpoint.failing.value = true
        clock.advance(by: 3601)
        let stale = try await cache.loadKeys()
        #expect(stale.keys.map(\.keyID) == ["rsa-1"])
        #expect(await cache.fetchCount == 2, "the stale set was due for a refetch, which failed")
        #expect(endpoint.transport.requests.count == 2)

        // Tokens keep verifying with the last good set while the endpoint is down, and the failing endpoint is
        // not asked again within the minimum refresh interval.
        _ = try await verifier.verify(try Self.token(signer, clock: clock))
        _ = try await verifier.verify(try Self.token(signer, clock: clock))
        #expect(try await cache.loadKeys().keys.count == 1)
        #expect(await cache.fetchCount == 2)

        // After the interval, the next load tries again, and still falls back to the last good set.
        clock.advance(by: 61)
        #expect(try await cache.loadKeys().keys.count == 1)
        #expect(await cache.fetchCount == 3)
        // An unknown kid cannot be found while the endpoint fails.
        clock.advance(by: 61)
        #expect(await cache.refreshForUnknownKey() == nil)
        #expect(await cache.fetchCount == 4)

        // When the endpoint recovers, the next due load replaces the set.
        endpoint.failing.value = false
        clock.advance(by: 61)
        _ = try await cache.loadKeys()
        #expect(await cache.fetchCount == 5)
        #expect(cache.cachedKeys()?.keys.count == 1)
        _ = try await verifier.verify(try Self.token(signer, clock: clock))
        #expect(await cache.fetchCount == 5)
    }

    @Test("the cached set is refetched once it is older than maximumAge, so removed keys stop verifying")
    func maximumAgeHonoured() async throws {
        let keyA = try TestIdP.rsa()
        let keyB = TestTokenSigner.p256(keyID: "key-b")
        let clock = MutableClock()
        let endpoint = JWKSEndpoint([keyA])
        let cache = try Self.cache(endpoint, clock: clock)
        let verifier = Self.verifier(cache, clock: clock)
        _ = try await verifier.verify(try Self.token(keyA, clock: clock))

        // The provider retires key A (for example after a compromise).
        endpoint.publish([keyB])
        clock.advance(by: 1800)
        _ = try await verifier.verify(try Self.token(keyA, clock: clock))
        #expect(await cache.fetchCount == 1, "a set younger than maximumAge is used as it is")

        clock.advance(by: 1801)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await verifier.verify(try Self.token(keyA, clock: clock))
        }
        #expect(error?.code == .keyNotFound)
        #expect(await cache.fetchCount == 2)
        _ = try await verifier.verify(try Self.token(keyB, clock: clock))
    }

    @Test("the first load fails with jwks_fetch_failed when nothing is cached")
    func firstLoadFails() async throws {
        let clock = MutableClock()
        let endpoint = JWKSEndpoint([try TestIdP.rsa()])
        endpoint.failing.value = true
        let cache = try Self.cache(endpoint, clock: clock)
        let error = await #expect(throws: OIDCError.self) { _ = try await cache.loadKeys() }
        #expect(error?.code == .jwksFetchFailed)
        #expect(cache.cachedKeys() == nil)
        let viaVerifier = await #expect(throws: OIDCError.self) {
            _ = try await Self.verifier(cache, clock: clock).verify(try Self.token(try TestIdP.rsa(), clock: clock))
        }
        #expect(viaVerifier?.code == .jwksFetchFailed)
    }

    @Test("a JWKS that is not a key set is invalid_jwks")
    func invalidDocument() async throws {
        let clock = MutableClock()
        let endpoint = JWKSEndpoint([])
        endpoint.body.value = #"{"keys":"nope"}"#
        let cache = try Self.cache(endpoint, clock: clock)
        let error = await #expect(throws: OIDCError.self) { _ = try await cache.loadKeys() }
        #expect(error?.code == .invalidJWKS)
    }

    @Test(
        "the JWKS URL must be https or loopback",
        arguments: ["http://idp.example.com/jwks", "ftp://idp.example.com/jwks"])
    func insecureURL(_ string: String) throws {
        let url = try #require(URL(string: string))
        let error = #expect(throws: OIDCError.self) {
            _ = try JWKSCache(url: url, transport: InMemoryHTTPTransport(routes: [:]))
        }
        #expect(error?.code == .insecureURL)
    }

    @Test("concurrent loads share one fetch")
    func concurrentLoadsShareOneFetch() async throws {
        let callers = 8
        let gate = Gate()
        let arrived = Shared(0)
        let jwks = TestTokenSigner.jwks([try TestIdP.rsa()])
        let transport = InMemoryHTTPTransport { _ in
            arrived.withLock { $0 += 1 }
            await gate.wait()
            return .json(jwks)
        }
        let clock = MutableClock()
        // maximumAge and minimumRefreshInterval 0: a load that arrived after the fetch finished would fetch again,
        // so a single fetch proves that every caller joined the one in flight.
        let cache = try JWKSCache(
            url: try #require(URL(string: TestIdP.jwksURL)), transport: transport, clock: clock,
            configuration: .init(minimumRefreshInterval: 0, maximumAge: 0))

        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<callers {
                group.addTask { try await cache.loadKeys().keys.count }
            }
            // Each load reads the clock once on entry, and the one that starts the fetch once more; wait until all
            // callers are inside the cache (bounded, so a changed implementation fails instead of hanging).
            var spins = 0
            while (arrived.value < 1 || clock.reads < callers + 1) && spins < 1_000_000 {
                await Task.yield()
                spins += 1
            }
            gate.open()
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            #expect(counts == Array(repeating: 1, count: callers))
        }
        #expect(await cache.fetchCount == 1)
        #expect(transport.requests.count == 1)
    }
}
