import Crypto
import CryptoExtras
import Foundation
import HTTPTypes
import JWTKit
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

@Suite("TokenClient")
struct TokenClientTests {
    static let accessToken = "at-8f14e45fceea167a5a36dedd4bea2543"
    static let refreshToken = "rt-c9f0f895fb98ab9159f51fd0297e236d"
    static let idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl"

    static func tokenResponse(_ changes: [String: String?] = [:]) -> String {
        var members: [String: String] = [
            "access_token": TestIdP.quoted(accessToken), "token_type": #""Bearer""#, "expires_in": "3600",
            "refresh_token": TestIdP.quoted(refreshToken), "id_token": TestIdP.quoted(idToken),
            "scope": #""openid profile""#,
        ]
        for (name, value) in changes { members[name] = value }
        return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    /// A transport answering every request with `response`.
    static func transport(_ response: HTTPTransportResponse = .json(tokenResponse())) -> InMemoryHTTPTransport {
        InMemoryHTTPTransport { _ in response }
    }

    static func client(
        _ transport: InMemoryHTTPTransport, authentication: ClientAuthentication = .none,
        clientID: String = TestIdP.clientID, revocation: Bool = true
    ) throws -> TokenClient {
        let revocationURL = try #require(URL(string: TestIdP.revocationURL))
        let revocationEndpoint = revocation ? revocationURL : nil
        return try TokenClient(
            tokenEndpoint: try #require(URL(string: TestIdP.tokenURL)), revocationEndpoint: revocationEndpoint,
            clientID: clientID, authentication: authentication, transport: transport,
            clock: FixedClock(unixSeconds: TestIdP.now))
    }

    // MARK: - Grants

    @Test("code exchange posts grant_type, code, redirect_uri and code_verifier")
    func codeExchange() async throws {
        let transport = Self.transport()
        let tokens = try await Self.client(transport).exchangeCode(
            "SplxlOBeZQQYbYS6WxSbIA", redirectURI: TestIdP.redirectURI,
            codeVerifier: "verifier-" + String(repeating: "v", count: 40))
        #expect(tokens.accessToken == Self.accessToken)
        #expect(tokens.refreshToken == Self.refreshToken)
        #expect(tokens.idToken == Self.idToken)
        #expect(tokens.scope == "openid profile")

        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.request.method == .post)
        #expect(request.urlWithoutQuery == TestIdP.tokenURL)
        #expect(request.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(request.request.headerFields[.accept] == "application/json")
        let form = request.formParameters
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code"] == "SplxlOBeZQQYbYS6WxSbIA")
        #expect(form["redirect_uri"] == TestIdP.redirectURI)
        #expect(form["code_verifier"] == "verifier-" + String(repeating: "v", count: 40))
    }

    // MARK: - Client authentication

    @Test("client_secret_basic sends the form-urlencoded id:secret in an Authorization header")
    func clientSecretBasic() async throws {
        let transport = Self.transport()
        let client = try Self.client(
            transport, authentication: .clientSecretBasic("p@ss:w+rd %x/"), clientID: "my:client +%")
        #expect(client.authentication.name == "client_secret_basic")
        _ = try await client.exchangeCode("code", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        let request = try #require(transport.requests.first)
        // base64("my%3Aclient+%2B%25:p%40ss%3Aw%2Brd+%25x%2F"), RFC 6749 §2.3.1.
        #expect(
            request.request.headerFields[.authorization]
                == "Basic bXklM0FjbGllbnQrJTJCJTI1OnAlNDBzcyUzQXclMkJyZCslMjV4JTJG")
        #expect(request.formParameters["client_secret"] == nil)
        #expect(request.formParameters["client_id"] == nil)
        #expect(!request.bodyText.contains("p%40ss"))
    }

    @Test("client_secret_post puts client_id and client_secret in the body")
    func clientSecretPost() async throws {
        let transport = Self.transport()
        let client = try Self.client(
            transport, authentication: .clientSecretPost("p@ss:w+rd %x/"), clientID: "my:client +%")
        #expect(client.authentication.name == "client_secret_post")
        _ = try await client.exchangeCode("code", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        let request = try #require(transport.requests.first)
        #expect(request.request.headerFields[.authorization] == nil)
        #expect(request.formParameters["client_id"] == "my:client +%")
        #expect(request.formParameters["client_secret"] == "p@ss:w+rd %x/")
    }

    @Test("none sends only client_id")
    func noneAuthentication() async throws {
        let transport = Self.transport()
        let client = try Self.client(transport, authentication: .none)
        #expect(client.authentication.name == "none")
        _ = try await client.exchangeCode("code", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        let request = try #require(transport.requests.first)
        #expect(request.request.headerFields[.authorization] == nil)
        #expect(
            Set(request.formParameters.keys) == ["grant_type", "code", "redirect_uri", "code_verifier", "client_id"])
        #expect(request.formParameters["client_id"] == TestIdP.clientID)
    }

    /// The claims of a client assertion as the provider reads them; `verify` is a no-op so a fixed test clock
    /// in the past does not make jwt-kit refuse the signature check.
    struct AssertionPayload: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var iat: Int64
        var exp: Int64
        var jti: String
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    @Test("private_key_jwt sends a client assertion that verifies with the client's public key")
    func privateKeyJWT() async throws {
        let privateKey = P256.Signing.PrivateKey()
        let authentication = ClientAuthentication.privateKeyJWT(
            PrivateKeyClientAssertionSigner(p256: privateKey, keyID: "client-key-1"))
        #expect(authentication.name == "private_key_jwt")

        let transport = Self.transport()
        let client = try Self.client(transport, authentication: authentication)
        _ = try await client.exchangeCode("code", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        _ = try await client.exchangeCode("code", redirectURI: TestIdP.redirectURI, codeVerifier: "v")

        let requests = transport.requests
        #expect(requests.count == 2)
        let form = try #require(requests.first).formParameters
        #expect(requests.first?.request.headerFields[.authorization] == nil)
        #expect(form["client_id"] == TestIdP.clientID)
        #expect(form["client_secret"] == nil)
        #expect(form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let assertion = try #require(form["client_assertion"])

        let verifyingKeys = JWTKeyCollection()
        await verifyingKeys.add(
            ecdsa: try ES256PublicKey(pem: privateKey.publicKey.pemRepresentation), kid: "client-key-1")
        let claims = try await verifyingKeys.verify(assertion, as: AssertionPayload.self)
        #expect(claims.iss == TestIdP.clientID)
        #expect(claims.sub == TestIdP.clientID)
        #expect(claims.aud == TestIdP.tokenURL)
        #expect(!claims.jti.isEmpty)
        #expect(claims.iat == TestIdP.now)
        #expect(claims.exp > claims.iat)

        let headerSegment = try #require(assertion.split(separator: ".").first)
        let header = try JSONParser().parse(try #require(Base64URL.decode(String(headerSegment))))
        #expect(header["alg"] == .string("ES256"))
        #expect(header["kid"] == .string("client-key-1"))

        // Another key cannot verify it.
        let strangerKeys = JWTKeyCollection()
        await strangerKeys.add(ecdsa: ES256PrivateKey().publicKey, kid: "client-key-1")
        await #expect(throws: (any Error).self) {
            _ = try await strangerKeys.verify(assertion, as: AssertionPayload.self)
        }

        // Each assertion has its own jti so the provider can refuse replays.
        let second = try #require(requests.last?.formParameters["client_assertion"])
        let secondClaims = try await verifyingKeys.verify(second, as: AssertionPayload.self)
        #expect(secondClaims.jti != claims.jti)
    }

    @Test("an RSA PEM signs RS256 assertions that jwt-kit verifies; other keys are refused")
    func privateKeyJWTWithRSA() async throws {
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = try PrivateKeyClientAssertionSigner(pem: privateKey.pemRepresentation, keyID: "rsa-1")
        #expect(signer.algorithm == .rs256)
        let claims = ClientAssertionClaims(
            clientID: TestIdP.clientID, audience: TestIdP.tokenURL, issuedAt: Date(timeIntervalSince1970: 1000),
            expiresAt: Date(timeIntervalSince1970: 1060), jwtID: "j-1")
        let assertion = try await signer.sign(claims)
        let verifyingKeys = JWTKeyCollection()
        await verifyingKeys.add(
            rsa: try Insecure.RSA.PublicKey(pem: privateKey.publicKey.pemRepresentation), digestAlgorithm: .sha256,
            kid: "rsa-1")
        let verified = try await verifyingKeys.verify(assertion, as: AssertionPayload.self)
        #expect(verified.iss == TestIdP.clientID && verified.aud == TestIdP.tokenURL)
        #expect(verified.iat == 1000 && verified.exp == 1060 && verified.jti == "j-1")

        let p256 = try PrivateKeyClientAssertionSigner(pem: P256.Signing.PrivateKey().pemRepresentation)
        #expect(p256.algorithm == .es256)
        #expect(throws: OIDCError(.invalidKey, "")) {
            try PrivateKeyClientAssertionSigner(pem: P384.Signing.PrivateKey().pemRepresentation)
        }
        #expect(throws: OIDCError(.invalidKey, "")) {
            try PrivateKeyClientAssertionSigner(
                pem: _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).pemRepresentation)
        }
        #expect(throws: OIDCError(.invalidKey, "")) { try PrivateKeyClientAssertionSigner(pem: "not a key") }
    }

    struct FailingSigner: ClientAssertionSigner {
        struct Failure: Error {}
        func sign(_ claims: ClientAssertionClaims) async throws -> String { throw Failure() }
    }

    @Test("a failing assertion signer is invalid_client and nothing is sent")
    func failingSigner() async throws {
        let transport = Self.transport()
        let client = try Self.client(transport, authentication: .privateKeyJWT(FailingSigner()))
        let error = await #expect(throws: OIDCError.self) {
            _ = try await client.exchangeCode("code", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        }
        #expect(error?.code == .invalidClient)
        #expect(transport.requests.isEmpty)
    }

    // MARK: - Response parsing

    @Test("token_type Bearer is accepted case-insensitively", arguments: ["Bearer", "bearer", "BEARER", "bEaReR"])
    func bearerCaseInsensitive(_ type: String) async throws {
        let transport = Self.transport(.json(Self.tokenResponse(["token_type": TestIdP.quoted(type)])))
        let tokens = try await Self.client(transport).refresh("rt")
        #expect(tokens.tokenType == "Bearer")
    }

    @Test("other token types are unexpected_token_type", arguments: ["mac", "DPoP", "N_A", "Bearer ", ""])
    func otherTokenTypes(_ type: String) async throws {
        let transport = Self.transport(.json(Self.tokenResponse(["token_type": TestIdP.quoted(type)])))
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.client(transport).refresh("rt") }
        #expect(error?.code == .unexpectedTokenType)
    }

    @Test(
        "expires_in becomes an absolute expiry from the clock",
        arguments: [("3600", 3600.0), (#""3600""#, 3600.0), ("0", 0.0), ("86400", 86_400.0), ("60.0", 60.0)])
    func expiresIn(_ json: String, _ seconds: TimeInterval) async throws {
        let transport = Self.transport(.json(Self.tokenResponse(["expires_in": json])))
        let tokens = try await Self.client(transport).refresh("rt")
        #expect(tokens.accessTokenExpiresAt == Date(timeIntervalSince1970: TimeInterval(TestIdP.now) + seconds))
    }

    @Test("no expires_in leaves the expiry unknown")
    func noExpiresIn() async throws {
        let transport = Self.transport(.json(Self.tokenResponse(["expires_in": nil])))
        #expect(try await Self.client(transport).refresh("rt").accessTokenExpiresAt == nil)
    }

    @Test(
        "malformed successful responses are invalid_token_response",
        arguments: [
            ["expires_in": "-1"], ["expires_in": "1.5"], ["expires_in": #""soon""#], ["expires_in": "true"],
            ["access_token": nil], ["access_token": #""""#], ["access_token": "42"], ["token_type": nil],
            ["id_token": "1"], ["refresh_token": "{}"], ["scope": "[]"],
        ] as [[String: String?]])
    func malformedResponse(_ changes: [String: String?]) async throws {
        let transport = Self.transport(.json(Self.tokenResponse(changes)))
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.client(transport).refresh("rt") }
        #expect(error?.code == .invalidTokenResponse)
    }

    @Test("a 200 that is not JSON is invalid_token_response")
    func notJSON() async throws {
        let transport = Self.transport(.text("<html>ok</html>", status: .ok))
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.client(transport).refresh("rt") }
        #expect(error?.code == .invalidTokenResponse)
    }

    @Test("null optional members are treated as absent")
    func nullMembers() async throws {
        let transport = Self.transport(
            .json(Self.tokenResponse(["refresh_token": "null", "id_token": "null", "scope": "null"])))
        let tokens = try await Self.client(transport).exchangeCode(
            "c", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        #expect(tokens.refreshToken == nil)
        #expect(tokens.idToken == nil)
        #expect(tokens.scope == nil)
    }

    // MARK: - Refresh

    @Test("refresh posts the refresh token and keeps it when none is returned")
    func refreshKeepsOld() async throws {
        let transport = Self.transport(.json(Self.tokenResponse(["refresh_token": nil, "id_token": nil])))
        let tokens = try await Self.client(transport).refresh("old-refresh-token")
        #expect(tokens.refreshToken == "old-refresh-token")
        #expect(tokens.accessToken == Self.accessToken)
        let form = try #require(transport.requests.first).formParameters
        #expect(form["grant_type"] == "refresh_token")
        #expect(form["refresh_token"] == "old-refresh-token")
        #expect(form["scope"] == nil)
    }

    @Test("refresh takes a rotated refresh token and can narrow the scope")
    func refreshRotates() async throws {
        let transport = Self.transport(.json(Self.tokenResponse(["refresh_token": #""rotated-refresh-token""#])))
        let tokens = try await Self.client(transport).refresh("old-refresh-token", scope: "openid email")
        #expect(tokens.refreshToken == "rotated-refresh-token")
        #expect(try #require(transport.requests.first).formParameters["scope"] == "openid email")
    }

    // MARK: - Errors

    @Test(
        "OAuth error responses map to typed errors",
        arguments: [
            (400, "invalid_grant", OIDCError.Code.invalidGrant), (401, "invalid_client", .invalidClient),
            (400, "invalid_client", .invalidClient), (400, "invalid_request", .invalidRequest),
            (400, "unauthorized_client", .unauthorizedClient), (400, "unsupported_grant_type", .unsupportedGrantType),
            (400, "invalid_scope", .invalidScope), (500, "server_error", .serverError),
            (503, "temporarily_unavailable", .temporarilyUnavailable), (400, "invalid_dpop_proof", .providerError),
        ])
    func oauthErrors(_ status: Int, _ error: String, _ code: OIDCError.Code) async throws {
        let body = #"{"error":"\#(error)","error_description":"The grant is no good"}"#
        let transport = Self.transport(.json(body, status: .init(code: status)))
        let thrown = await #expect(throws: OIDCError.self) {
            _ = try await Self.client(transport).exchangeCode("c", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        }
        #expect(thrown?.code == code)
        #expect(thrown?.reason.contains("The grant is no good") == true)
    }

    @Test(
        "a non-200 without an OAuth error is unexpected_status",
        arguments: [
            HTTPTransportResponse.text("<html><body>Internal Server Error</body></html>", status: .internalServerError),
            .text("", status: .badGateway), .json(#"{"message":"nope"}"#, status: .badRequest),
            .text("", status: .found), .json(tokenResponse(), status: .created),
        ])
    func unexpectedStatus(_ response: HTTPTransportResponse) async throws {
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.client(Self.transport(response)).exchangeCode(
                "c", redirectURI: TestIdP.redirectURI, codeVerifier: "v")
        }
        #expect(error?.code == .unexpectedStatus)
    }

    @Test("a transport failure is transport_failed")
    func transportFailure() async throws {
        let transport = InMemoryHTTPTransport { _ in throw HTTPTransportError(.connectionFailed, "refused") }
        let error = await #expect(throws: OIDCError.self) { _ = try await Self.client(transport).refresh("rt") }
        #expect(error?.code == .transportFailed)
    }

    @Test("endpoints must be https or loopback")
    func insecureEndpoints() throws {
        let transport = Self.transport()
        let plain = try #require(URL(string: "http://idp.example.com/token"))
        let secure = try #require(URL(string: TestIdP.tokenURL))
        let loopback = try #require(URL(string: "http://127.0.0.1:9000/token"))
        let first = #expect(throws: OIDCError.self) {
            _ = try TokenClient(tokenEndpoint: plain, clientID: "c", authentication: .none, transport: transport)
        }
        #expect(first?.code == .insecureURL)
        let second = #expect(throws: OIDCError.self) {
            _ = try TokenClient(
                tokenEndpoint: secure, revocationEndpoint: plain, clientID: "c", authentication: .none,
                transport: transport)
        }
        #expect(second?.code == .insecureURL)
        _ = try TokenClient(
            tokenEndpoint: loopback, revocationEndpoint: loopback, clientID: "c", authentication: .none,
            transport: transport)
    }

    // MARK: - Revocation

    @Test("revocation posts token and token_type_hint with client authentication; 200 is success")
    func revocation() async throws {
        let transport = Self.transport(.text("", status: .ok, contentType: "text/plain"))
        let client = try Self.client(transport, authentication: .clientSecretPost("secret"))
        try await client.revoke("rt-to-revoke", typeHint: "refresh_token")
        try await client.revoke("at-to-revoke")
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.urlWithoutQuery == TestIdP.revocationURL && $0.request.method == .post })
        #expect(requests[0].formParameters["token"] == "rt-to-revoke")
        #expect(requests[0].formParameters["token_type_hint"] == "refresh_token")
        #expect(requests[0].formParameters["client_id"] == TestIdP.clientID)
        #expect(requests[0].formParameters["client_secret"] == "secret")
        #expect(requests[1].formParameters["token"] == "at-to-revoke")
        #expect(requests[1].formParameters["token_type_hint"] == nil)
    }

    @Test("revocation without a revocation endpoint is unsupported_feature")
    func revocationUnsupported() async throws {
        let transport = Self.transport()
        let error = await #expect(throws: OIDCError.self) {
            try await Self.client(transport, revocation: false).revoke("rt", typeHint: "refresh_token")
        }
        #expect(error?.code == .unsupportedFeature)
        #expect(transport.requests.isEmpty)
    }

    @Test(
        "revocation failures are mapped",
        arguments: [
            (
                HTTPTransportResponse.json(#"{"error":"unsupported_token_type"}"#, status: .badRequest),
                OIDCError.Code.unsupportedTokenType
            ),
            (.json(#"{"error":"invalid_client"}"#, status: .unauthorized), .invalidClient),
            (.text("<html>down</html>", status: .serviceUnavailable), .unexpectedStatus),
        ])
    func revocationFailures(_ response: HTTPTransportResponse, _ code: OIDCError.Code) async throws {
        let error = await #expect(throws: OIDCError.self) {
            try await Self.client(Self.transport(response)).revoke("rt")
        }
        #expect(error?.code == code)
    }

    // MARK: - Secrets stay out of text

    @Test("a token set's description never contains token values")
    func descriptionHidesTokens() async throws {
        let tokens = try await Self.client(Self.transport()).refresh("rt")
        for text in [tokens.description, String(describing: tokens), "\(tokens)"] {
            #expect(!text.contains(Self.accessToken))
            #expect(!text.contains(Self.refreshToken))
            #expect(!text.contains(Self.idToken))
        }
        #expect(tokens.description.contains("refreshToken: yes"))
        #expect(tokens.description.contains("idToken: yes"))
    }

    @Test("errors never contain the code, verifier, secret or tokens")
    func errorsHideSecrets() async throws {
        let secret = "client-secret-5f4dcc3b5aa765d61d8327deb882cf99"
        let code = "code-e10adc3949ba59abbe56e057f20f883e"
        let verifier = "verifier-25d55ad283aa400af464c76d713c07ad"
        let responses: [HTTPTransportResponse] = [
            .json(#"{"error":"invalid_grant"}"#, status: .badRequest), .text("<html/>", status: .internalServerError),
            .json(Self.tokenResponse(["token_type": #""mac""#])), .json(Self.tokenResponse(["expires_in": "-5"])),
        ]
        for response in responses {
            let client = try Self.client(Self.transport(response), authentication: .clientSecretBasic(secret))
            let error = await #expect(throws: OIDCError.self) {
                _ = try await client.exchangeCode(code, redirectURI: TestIdP.redirectURI, codeVerifier: verifier)
            }
            let text = String(describing: error)
            for value in [secret, code, verifier, Self.accessToken, Self.refreshToken, Self.idToken] {
                #expect(!text.contains(value))
            }
        }
    }
}
