import Foundation
import SSOKitCore
import SSOKitOIDC
import Testing

/// The query of `url` as ordered pairs.
private func queryPairs(_ url: URL) throws -> [(String, String)] {
    let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
    return try #require(FormURLEncoding.decode(query))
}

private let appendixBVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
private let appendixBChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

@Suite("AuthorizationRequest")
struct AuthorizationRequestTests {
    static func request(
        endpoint: String = TestIdP.authorizationURL, scopes: [String] = ["openid"], prompt: [String] = [],
        loginHint: String? = nil, maxAge: Int64? = nil, acrValues: [String] = [],
        extraParameters: [(String, String)] = []
    ) throws -> AuthorizationRequest {
        AuthorizationRequest(
            endpoint: try #require(URL(string: endpoint)), clientID: TestIdP.clientID, redirectURI: TestIdP.redirectURI,
            scopes: scopes, state: "state-123", nonce: "nonce-456", pkce: try PKCE(verifier: appendixBVerifier),
            prompt: prompt, loginHint: loginHint, maxAge: maxAge, acrValues: acrValues,
            extraParameters: extraParameters)
    }

    @Test("the URL carries every required parameter")
    func requiredParameters() throws {
        let request = try Self.request()
        let pairs = try queryPairs(request.url)
        let parameters = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        #expect(pairs.count == parameters.count, "no parameter is repeated")
        #expect(parameters["response_type"] == "code")
        #expect(parameters["client_id"] == TestIdP.clientID)
        #expect(parameters["redirect_uri"] == TestIdP.redirectURI)
        #expect(parameters["scope"] == "openid")
        #expect(parameters["state"] == "state-123")
        #expect(parameters["nonce"] == "nonce-456")
        #expect(parameters["code_challenge"] == appendixBChallenge)
        #expect(parameters["code_challenge_method"] == "S256")
        #expect(parameters["prompt"] == nil)
        #expect(parameters["login_hint"] == nil)
        #expect(parameters["max_age"] == nil)
        #expect(parameters["acr_values"] == nil)
        #expect(parameters["code_verifier"] == nil, "the verifier never leaves the client in the front channel")
        #expect(!request.url.absoluteString.contains(appendixBVerifier))
        #expect(request.url.absoluteString.hasPrefix(TestIdP.authorizationURL + "?"))
        // redirect_uri is percent-encoded in the URL itself.
        #expect(request.url.absoluteString.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback"))
    }

    @Test(
        "scope always includes openid, first when it was missing",
        arguments: [
            (["openid"], "openid"), (["profile", "email"], "openid profile email"),
            (["email", "openid", "profile"], "email openid profile"), ([], "openid"),
        ])
    func scopes(_ scopes: [String], _ expected: String) throws {
        let parameters = Dictionary(
            try queryPairs(try Self.request(scopes: scopes).url), uniquingKeysWith: { a, _ in a })
        #expect(parameters["scope"] == expected)
    }

    @Test("prompt, login_hint, max_age and acr_values are sent when set")
    func optionalParameters() throws {
        let request = try Self.request(
            prompt: ["login", "consent"], loginHint: "jane+test@example.com", maxAge: 300,
            acrValues: ["urn:mace:incommon:iap:silver", "phr"])
        let parameters = Dictionary(try queryPairs(request.url), uniquingKeysWith: { a, _ in a })
        #expect(parameters["prompt"] == "login consent")
        #expect(parameters["login_hint"] == "jane+test@example.com")
        #expect(parameters["max_age"] == "300")
        #expect(parameters["acr_values"] == "urn:mace:incommon:iap:silver phr")
        #expect(request.idTokenExpectations.maxAge == 300)
        #expect(request.idTokenExpectations.nonce == "nonce-456")
    }

    @Test("extra parameters are appended but cannot override reserved ones")
    func extraParameters() throws {
        let request = try Self.request(
            prompt: ["none"],
            extraParameters: [
                ("state", "attacker"), ("client_id", "evil"), ("redirect_uri", "https://evil.example.com/cb"),
                ("response_type", "token"), ("scope", "admin"), ("nonce", "fixed"), ("code_challenge", "x"),
                ("code_challenge_method", "plain"), ("prompt", "consent"), ("resource", "https://api.example.com"),
                ("ui_locales", "fr-CA fr"),
            ])
        let pairs = try queryPairs(request.url)
        let names = pairs.map(\.0)
        #expect(Set(names).count == names.count, "no parameter is repeated: \(names)")
        let parameters = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
        #expect(parameters["state"] == "state-123")
        #expect(parameters["client_id"] == TestIdP.clientID)
        #expect(parameters["redirect_uri"] == TestIdP.redirectURI)
        #expect(parameters["response_type"] == "code")
        #expect(parameters["scope"] == "openid")
        #expect(parameters["nonce"] == "nonce-456")
        #expect(parameters["code_challenge"] == appendixBChallenge)
        #expect(parameters["code_challenge_method"] == "S256")
        #expect(parameters["prompt"] == "none")
        #expect(parameters["resource"] == "https://api.example.com")
        #expect(parameters["ui_locales"] == "fr-CA fr")
        #expect(names.suffix(2) == ["resource", "ui_locales"], "extras come last, in order")
    }

    @Test("an endpoint with a query keeps it")
    func endpointWithQuery() throws {
        let request = try Self.request(endpoint: "https://idp.example.com/oauth2/authorize?tenant=acme&p=B2C_1_signin")
        let url = request.url.absoluteString
        #expect(url.hasPrefix("https://idp.example.com/oauth2/authorize?tenant=acme&p=B2C_1_signin&response_type=code"))
        let pairs = try queryPairs(request.url)
        #expect(pairs.first.map { [$0.0, $0.1] } == ["tenant", "acme"])
        #expect(pairs.contains { $0 == ("p", "B2C_1_signin") })
        #expect(pairs.contains { $0 == ("client_id", TestIdP.clientID) })
        #expect(!url.contains("?response_type"))
    }

    @Test("fresh requests get fresh state, nonce and verifier")
    func freshSecrets() throws {
        let endpoint = try #require(URL(string: TestIdP.authorizationURL))
        let first = AuthorizationRequest(endpoint: endpoint, clientID: "c", redirectURI: TestIdP.redirectURI)
        let second = AuthorizationRequest(endpoint: endpoint, clientID: "c", redirectURI: TestIdP.redirectURI)
        #expect(first.state != second.state)
        #expect(first.nonce != second.nonce)
        #expect(first.pkce.verifier != second.pkce.verifier)
        #expect(first.state != first.nonce)
        for value in [first.state, first.nonce] {
            #expect(value.utf8.count >= 43, "at least 256 bits")
            #expect(Base64URL.decode(value)?.count == 32)
        }
        #expect(first.pkce.method == .s256)
    }
}

@Suite("AuthorizationCallback")
struct AuthorizationCallbackTests {
    static func request() throws -> AuthorizationRequest {
        AuthorizationRequest(
            endpoint: try #require(URL(string: TestIdP.authorizationURL)), clientID: TestIdP.clientID,
            redirectURI: TestIdP.redirectURI, state: "state-123", nonce: "nonce-456")
    }

    static let escapedIssuer = FormURLEncoding.escape(TestIdP.issuer)

    static func callback(_ query: String, issuerRequired: Bool = false) throws(OIDCError) -> AuthorizationCallback {
        let request: AuthorizationRequest
        do { request = try Self.request() } catch { throw OIDCError(.invalidRequest, "test setup") }
        return try AuthorizationCallback(
            query: query, request: request, issuer: TestIdP.issuer, issuerParameterRequired: issuerRequired)
    }

    @Test("a callback with code and matching state succeeds")
    func success() throws {
        #expect(try Self.callback("code=SplxlOBeZQQYbYS6WxSbIA&state=state-123").code == "SplxlOBeZQQYbYS6WxSbIA")
        #expect(try Self.callback("state=state-123&code=abc%2Fdef+g").code == "abc/def g")
        #expect(try Self.callback("code=abc&state=state-123&session_state=xyz").code == "abc")
    }

    @Test(
        "a different or missing state is state_mismatch",
        arguments: [
            "code=abc&state=state-124", "code=abc&state=", "code=abc", "code=abc&state=STATE-123",
            "code=abc&State=state-123",
        ])
    func stateMismatch(_ query: String) {
        let error = #expect(throws: OIDCError.self) { _ = try Self.callback(query) }
        #expect(error?.code == .stateMismatch)
    }

    @Test("an iss that differs from the issuer is issuer_mismatch, required or not", arguments: [false, true])
    func issuerMismatch(_ required: Bool) {
        for iss in ["https%3A%2F%2Fevil.example.com", "https%3A%2F%2Fidp.example.com%2F", ""] {
            let error = #expect(throws: OIDCError.self) {
                _ = try Self.callback("code=abc&state=state-123&iss=\(iss)", issuerRequired: required)
            }
            #expect(error?.code == .issuerMismatch)
        }
    }

    @Test("iss missing when the provider advertises RFC 9207 is missing_issuer_parameter")
    func issuerRequiredButMissing() {
        let error = #expect(throws: OIDCError.self) {
            _ = try Self.callback("code=abc&state=state-123", issuerRequired: true)
        }
        #expect(error?.code == .missingIssuerParameter)
    }

    @Test("iss absent and not required is fine; iss present and equal is fine either way")
    func issuerOptional() throws {
        #expect(try Self.callback("code=abc&state=state-123", issuerRequired: false).code == "abc")
        #expect(
            try Self.callback("code=abc&state=state-123&iss=\(Self.escapedIssuer)", issuerRequired: true).code == "abc")
        #expect(
            try Self.callback("code=abc&state=state-123&iss=\(Self.escapedIssuer)", issuerRequired: false).code == "abc"
        )
    }

    @Test(
        "an error response maps to its typed error",
        arguments: [
            ("access_denied", OIDCError.Code.accessDenied), ("login_required", .loginRequired),
            ("interaction_required", .interactionRequired), ("consent_required", .consentRequired),
            ("account_selection_required", .interactionRequired), ("invalid_request", .invalidRequest),
            ("unauthorized_client", .unauthorizedClient), ("invalid_scope", .invalidScope),
            ("server_error", .serverError), ("temporarily_unavailable", .temporarilyUnavailable),
            ("something_new", .providerError), ("", .providerError),
        ])
    func errorResponse(_ error: String, _ code: OIDCError.Code) {
        let thrown = #expect(throws: OIDCError.self) {
            _ = try Self.callback("error=\(error)&error_description=The+user+said+no&state=state-123")
        }
        #expect(thrown?.code == code)
    }

    @Test("an error response with the wrong state is state_mismatch, not the provider's error")
    func errorWithWrongState() {
        let error = #expect(throws: OIDCError.self) { _ = try Self.callback("error=access_denied&state=forged") }
        #expect(error?.code == .stateMismatch)
    }

    @Test("the provider's error_description is quoted only as printable ASCII, at most 200 characters")
    func errorDescriptionSanitised() {
        let description = "Bad%0D%0AInjected%1B%5B31m" + String(repeating: "x", count: 500)
        let error = #expect(throws: OIDCError.self) {
            _ = try Self.callback("error=access_denied&error_description=\(description)&state=state-123")
        }
        let reason = error?.reason ?? ""
        #expect(error?.code == .accessDenied)
        #expect(reason.contains("BadInjected[31m"))
        #expect(!reason.contains("\r") && !reason.contains("\n") && !reason.contains("\u{1B}"))
        #expect(reason.count < 300)
    }

    @Test(
        "a repeated parameter is invalid_callback",
        arguments: [
            "code=a&code=b&state=state-123", "code=a&state=state-123&state=state-123",
            "code=a&state=state-123&iss=x&iss=y",
            "code=a&state=state-123&error=x&error=x",
        ])
    func repeatedParameter(_ query: String) {
        let error = #expect(throws: OIDCError.self) { _ = try Self.callback(query) }
        #expect(error?.code == .invalidCallback)
    }

    @Test(
        "no code is invalid_callback", arguments: ["state=state-123", "code=&state=state-123", "state=state-123&code"])
    func missingCode(_ query: String) {
        let error = #expect(throws: OIDCError.self) { _ = try Self.callback(query) }
        #expect(error?.code == .invalidCallback)
    }

    @Test(
        "a malformed query is invalid_callback",
        arguments: ["code=%zz&state=state-123", "code=abc&state=%", "%FF=1&state=state-123"])
    func malformedQuery(_ query: String) {
        let error = #expect(throws: OIDCError.self) { _ = try Self.callback(query) }
        #expect(error?.code == .invalidCallback)
    }

    @Test("a full redirect URL is parsed")
    func fromURL() throws {
        let url = try #require(
            URL(string: "http://127.0.0.1:8765/callback?code=abc%2Fdef&state=state-123&iss=\(Self.escapedIssuer)"))
        let callback = try AuthorizationCallback(
            url: url, request: try Self.request(), issuer: TestIdP.issuer, issuerParameterRequired: true)
        #expect(callback.code == "abc/def")
        let noQuery = try #require(URL(string: "http://127.0.0.1:8765/callback"))
        let error = #expect(throws: OIDCError.self) {
            _ = try AuthorizationCallback(
                url: noQuery, request: try Self.request(), issuer: TestIdP.issuer, issuerParameterRequired: false)
        }
        #expect(error?.code == .stateMismatch)
    }
}

@Suite("PKCE")
struct PKCETests {
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    @Test("a generated verifier is 43 to 128 unreserved characters with its S256 challenge")
    func generated() throws {
        for pkce in [PKCE(), PKCE(method: .s256)] {
            #expect((43...128).contains(pkce.verifier.utf8.count))
            #expect(pkce.verifier.utf8.allSatisfy(Self.isUnreserved))
            #expect(pkce.method == .s256)
            #expect(pkce.challenge == PKCE.challenge(for: pkce.verifier, method: .s256))
            #expect(pkce.challenge != pkce.verifier)
            try PKCE.validate(verifier: pkce.verifier, challenge: pkce.challenge, method: .s256)
        }
    }

    @Test("two generated verifiers differ")
    func generatedDiffer() {
        let verifiers = Set((0..<16).map { _ in PKCE().verifier })
        #expect(verifiers.count == 16)
    }

    @Test("the S256 challenge of RFC 7636 Appendix B")
    func appendixB() throws {
        #expect(PKCE.challenge(for: appendixBVerifier, method: .s256) == appendixBChallenge)
        let pkce = try PKCE(verifier: appendixBVerifier)
        #expect(pkce.challenge == appendixBChallenge)
        #expect(pkce.method.name == "S256")
        try PKCE.validate(verifier: appendixBVerifier, challenge: appendixBChallenge, method: .s256)
    }

    @Test("the plain method uses the verifier as the challenge, only when asked")
    func plain() throws {
        let pkce = PKCE(method: .plain)
        #expect(pkce.challenge == pkce.verifier)
        #expect(pkce.method.name == "plain")
        try PKCE.validate(verifier: appendixBVerifier, challenge: appendixBVerifier, method: .plain)
        let error = #expect(throws: OIDCError.self) {
            try PKCE.validate(verifier: appendixBVerifier, challenge: appendixBChallenge, method: .plain)
        }
        #expect(error?.code == .invalidCodeVerifier)
    }

    @Test(
        "malformed verifiers are refused",
        arguments: [
            "", String(repeating: "a", count: 42), String(repeating: "a", count: 129),
            String(repeating: "a", count: 42) + "+", String(repeating: "a", count: 42) + "/",
            String(repeating: "a", count: 42) + " ", String(repeating: "a", count: 42) + "=",
            String(repeating: "a", count: 42) + "é",
        ])
    func malformedVerifier(_ verifier: String) {
        let error = #expect(throws: OIDCError.self) { _ = try PKCE(verifier: verifier) }
        #expect(error?.code == .invalidCodeVerifier)
    }

    @Test("length bounds 43 and 128 are accepted, with every unreserved character", arguments: [43, 128])
    func boundaries(_ length: Int) throws {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let verifier = String((0..<length).map { alphabet[$0 % alphabet.count] })
        #expect(try PKCE(verifier: verifier).verifier == verifier)
    }

    @Test("a verifier that does not match the challenge is refused")
    func mismatch() {
        let error = #expect(throws: OIDCError.self) {
            try PKCE.validate(verifier: appendixBVerifier, challenge: PKCE().challenge, method: .s256)
        }
        #expect(error?.code == .invalidCodeVerifier)
    }
}
