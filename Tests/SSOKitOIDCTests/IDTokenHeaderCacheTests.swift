import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

/// A verifier keeps the last header it parsed (JWSHeaderCache): whatever it has seen before, every token must get
/// the verdict a fresh verifier gives it.
@Suite("IDTokenVerifier header cache")
struct IDTokenHeaderCacheTests {
    static let header = #"{"alg":"RS256","kid":"rsa-1","typ":"JWT"}"#

    /// Tokens that share a header segment with a valid token, or differ from it by one byte, in an order where each
    /// follows one whose header was kept.
    static func tokens() throws -> [(String, String)] {
        let signer = try TestIdP.rsa()
        let valid = try signRaw(header: header, claims: TestIdP.claims(), with: signer)
        let parts = valid.split(separator: ".").map(String.init)
        let otherClaims = try signRaw(header: header, claims: TestIdP.claims(["nonce": "\"another\""]), with: signer)
        let otherKeyID = try signRaw(
            header: #"{"alg":"RS256","kid":"rsa-9","typ":"JWT"}"#, claims: TestIdP.claims(), with: signer)
        let noKeyID = try signRaw(header: #"{"alg":"RS256","typ":"JWT"}"#, claims: TestIdP.claims(), with: signer)
        let critical = try signer.sign(claims: TestIdP.claims(), extraHeader: #","crit":["exp"],"exp":1"#)
        let none = Base64URL.encode(Array(#"{"alg":"none","kid":"rsa-1","typ":"JWT"}"#.utf8))
        return [
            ("valid", valid),
            ("same header, payload not base64url", "\(parts[0]).!!!.\(parts[2])"),
            ("same header, signature not base64url", "\(parts[0]).\(parts[1]).A=A"),
            ("same header, another payload", "\(parts[0]).\(otherClaims.split(separator: ".")[1]).\(parts[2])"),
            ("same header, payload not an object", "\(parts[0]).\(Base64URL.encode(Array("[1]".utf8))).\(parts[2])"),
            ("same header, signature cut", "\(parts[0]).\(parts[1]).\(parts[2].dropLast(4))"),
            ("valid again", valid),
            ("a header one byte longer", "\(parts[0])A.\(parts[1]).\(parts[2])"),
            ("a header one byte shorter", "\(parts[0].dropLast()).\(parts[1]).\(parts[2])"),
            ("valid after a refused header", valid),
            ("another kid", otherKeyID),
            ("no kid", noKeyID),
            ("crit", critical),
            ("alg none", "\(none).\(parts[1]).\(parts[2])"),
            ("valid last", valid),
            ("another token under the same header", otherClaims),
        ]
    }

    @Test("a verifier that has seen other tokens gives each token a fresh verifier's verdict")
    func sameVerdictAsFresh() async throws {
        let shared = try IDTokenVerifierTests.verifier([try TestIdP.rsa()])
        let expectations = IDTokenExpectations(nonce: TestIdP.nonce)
        var verdicts: [String] = []
        for (name, token) in try Self.tokens() {
            let fresh = try IDTokenVerifierTests.verifier([try TestIdP.rsa()])
            let expected = await Self.verdict(fresh, token, expectations)
            let got = await Self.verdict(shared, token, expectations)
            #expect(got == expected, "\(name)")
            verdicts.append(expected)
        }
        // The sequence is not vacuous: some tokens pass, and the others fail for several reasons.
        #expect(verdicts.filter { $0 == "accepted" }.count == 5)
        #expect(Set(verdicts).count == 7, "\(verdicts)")
    }

    @Test("a header segment over the kept length is parsed every time, with the same verdicts")
    func longHeader() async throws {
        let signer = try TestIdP.rsa()
        let padding = String(repeating: "x", count: 600)
        let token = try signRaw(
            header: #"{"alg":"RS256","kid":"rsa-1","typ":"JWT","x":"\#(padding)"}"#, claims: TestIdP.claims(),
            with: signer)
        let verifier = try IDTokenVerifierTests.verifier([signer])
        for _ in 0..<2 {
            #expect(await Self.verdict(verifier, token, IDTokenExpectations(nonce: TestIdP.nonce)) == "accepted")
        }
    }

    static func verdict(_ verifier: IDTokenVerifier, _ token: String, _ expectations: IDTokenExpectations) async
        -> String
    {
        do {
            let claims = try await verifier.verify(token, expecting: expectations)
            return claims.nonce == TestIdP.nonce ? "accepted" : "accepted with nonce \(claims.nonce ?? "none")"
        } catch {
            return error.code.description
        }
    }
}
