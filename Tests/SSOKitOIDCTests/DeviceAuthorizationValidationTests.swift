import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

/// What the device endpoint sends is shown to the user and may be opened in a browser: verification URIs must be
/// https (or http on a loopback host), the user code printable, and `expires_in` bounded.
extension DeviceFlowTests {
    static func startError(_ changes: [String: String?]) async -> OIDCError? {
        let provider = Provider(device: .json(Self.deviceResponse(changes)), tokenAnswers: [])
        return await #expect(throws: OIDCError.self) { _ = try await provider.client().start(scopes: ["openid"]) }
    }

    @Test(
        "a verification URI that is not https (or http on loopback) is insecure_url",
        arguments: [
            "http://idp.example.com/device", "javascript:alert(1)", "file:///etc/passwd", "-https://idp.example.com",
            "--help", "--user-data-dir=/tmp/x", "http://127.0.0.1.example.com/device", "/device", "",
        ])
    func insecureVerificationURI(_ uri: String) async throws {
        for member in ["verification_uri", "verification_uri_complete"] {
            let error = await Self.startError([member: TestIdP.quoted(uri)])
            #expect(error?.code == .insecureURL, "\(member) = \(uri)")
        }
    }

    @Test("http verification URIs on a loopback host are accepted")
    func loopbackVerificationURI() async throws {
        let device = Self.deviceResponse([
            "verification_uri": #""http://127.0.0.1:8080/device""#,
            "verification_uri_complete": #""http://localhost:8080/device?user_code=WDJB-MJHT""#,
        ])
        let authorization = try await Provider(device: .json(device), tokenAnswers: []).client().start(scopes: [
            "openid"
        ])
        #expect(authorization.verificationURI == "http://127.0.0.1:8080/device")
    }

    @Test(
        "terminal control characters in what is shown are invalid_token_response",
        arguments: [
            ["verification_uri": #""https://idp.example.com/device\u001b[2J""#],
            ["verification_uri_complete": #""https://idp.example.com/d?c=\u001b]0;pwned\u0007""#],
            ["verification_uri": #""https://idp.example.com/de vice""#],
            ["user_code": #""WDJB\u001b[31m-MJHT""#],
            ["user_code": #""WDJB\rMJHT""#],
            ["user_code": #""WDJB\u202eTHJM""#],
            ["user_code": #""WDJB\u009bMJHT""#],
            ["user_code": #""""#],
            ["user_code": TestIdP.quoted(String(repeating: "A", count: 129))],
        ] as [[String: String?]])
    func controlCharacters(_ changes: [String: String?]) async throws {
        let error = await Self.startError(changes)
        #expect(error?.code == .invalidTokenResponse)
    }

    @Test("expires_in is bounded: a provider cannot make the client poll for days")
    func expiresInIsBounded() async throws {
        for huge in ["86400", "9223372036854775807", "1e300"] {
            let provider = Provider(device: .json(Self.deviceResponse(["expires_in": huge])), tokenAnswers: [])
            let authorization = try await provider.client().start(scopes: ["openid"])
            #expect(authorization.expiresAt == Date(timeIntervalSince1970: TimeInterval(TestIdP.now + 1800)), "\(huge)")
        }
    }
}
