import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

/// Plain http issuers only on loopback hosts, applied to every configured issuer, not only where something is
/// fetched (a verifier with a fixed key set, as `verify-id-token --jwks FILE` builds, included).
@Suite("Issuer scheme")
struct IssuerSchemeTests {
    static func verify(issuer: String) async throws {
        let signer = try TestIdP.rsa()
        var claims = TestIdP.claims()
        claims = claims.replacingOccurrences(of: TestIdP.quoted(TestIdP.issuer), with: TestIdP.quoted(issuer))
        let token = try signer.sign(claims: claims)
        let keySet = try JSONWebKeySet(jsonBytes: Array(TestTokenSigner.jwks([signer]).utf8))
        let verifier = IDTokenVerifier(
            configuration: .init(issuer: issuer, clientID: TestIdP.clientID),
            keys: StaticKeySource(keySet), clock: FixedClock(unixSeconds: TestIdP.now))
        _ = try await verifier.verify(token)
    }

    @Test(
        "an issuer that is not https, nor http on a loopback host, is insecure_url with a fixed key set",
        arguments: [
            "http://idp.example.com", "http://127.0.0.1.example.com", "http://127.0.0.1.nip.io:8080",
            "http://localhost.example.com", "http://127.0.0.1@idp.example.com", "http://[::ffff:7f00:1]",
            "http://127.1", "http://0x7f.0.0.1", "ftp://127.0.0.1", "idp.example.com", "", "https://",
            "http://localhost:8080@evil.example.com/",
        ])
    func refused(_ issuer: String) async throws {
        let error = await #expect(throws: OIDCError.self) { try await Self.verify(issuer: issuer) }
        #expect(error?.code == .insecureURL)
    }

    @Test(
        "https issuers and http issuers on loopback hosts are accepted",
        arguments: [
            "https://idp.example.com", "http://127.0.0.1:8080", "http://127.255.0.9", "http://localhost:9000/realm",
            "http://LOCALHOST", "http://[::1]:8443",
        ])
    func accepted(_ issuer: String) async throws {
        try await Self.verify(issuer: issuer)
    }
}
