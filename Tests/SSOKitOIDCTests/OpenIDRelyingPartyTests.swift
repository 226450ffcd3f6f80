import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

@Suite("OpenIDRelyingParty")
struct OpenIDRelyingPartyTests {
    /// How the in-memory provider misbehaves, if at all.
    enum Mode: Sendable {
        case honest, wrongNonce, wrongCodeHash, wrongAccessTokenHash, noIDTokenOnRefresh
    }

    /// A complete provider in memory: discovery, JWKS, token (code and refresh grants, checking PKCE), userinfo
    /// and revocation endpoints; ID tokens signed with an RSA test key.
    final class Provider: Sendable {
        let signer: TestTokenSigner
        /// The nonce and PKCE challenge of the authorization request the "browser" went through.
        let pending: Shared<(nonce: String, challenge: String)?>
        let refreshSubject: Shared<String>
        let mode: Shared<Mode>
        let transport: InMemoryHTTPTransport

        init() throws {
            let signer = try TestIdP.rsa()
            let pending = Shared<(nonce: String, challenge: String)?>(nil)
            let refreshSubject = Shared(TestIdP.subject)
            let mode = Shared(Mode.honest)
            self.signer = signer
            self.pending = pending
            self.refreshSubject = refreshSubject
            self.mode = mode
            let discovery = TestIdP.discoveryDocument(extra: ["authorization_response_iss_parameter_supported": "true"])
            transport = InMemoryHTTPTransport { request in
                switch request.urlWithoutQuery {
                case TestIdP.discoveryURL:
                    return .json(discovery)
                case TestIdP.jwksURL:
                    return .json(TestTokenSigner.jwks([signer]))
                case TestIdP.userInfoURL:
                    return .json(#"{"sub":"\#(TestIdP.subject)","email":"janedoe@example.com"}"#)
                case TestIdP.revocationURL:
                    return .init(response: .init(status: .ok), body: [])
                case TestIdP.tokenURL:
                    return try Provider.token(
                        request.formParameters, signer: signer, pending: pending.value,
                        refreshSubject: refreshSubject.value,
                        mode: mode.value)
                default:
                    return .init(response: .init(status: .notFound), body: [])
                }
            }
        }

        private static func token(
            _ form: [String: String], signer: TestTokenSigner, pending: (nonce: String, challenge: String)?,
            refreshSubject: String, mode: Mode
        ) throws -> HTTPTransportResponse {
            let rs256 = JWSAlgorithm.rs256
            switch form["grant_type"] {
            case "authorization_code":
                guard let code = form["code"], let pending, let verifier = form["code_verifier"],
                    (try? PKCE.validate(verifier: verifier, challenge: pending.challenge, method: .s256)) != nil,
                    form["redirect_uri"] == TestIdP.redirectURI, form["client_id"] == TestIdP.clientID
                else { return .json(#"{"error":"invalid_grant"}"#, status: .badRequest) }
                let accessToken = "at-login-1"
                let idToken = try signer.sign(
                    claims: TestIdP.claims([
                        "nonce": TestIdP.quoted(mode == .wrongNonce ? "another-nonce" : pending.nonce),
                        "at_hash": TestIdP.quoted(
                            rs256.halfHash(of: mode == .wrongAccessTokenHash ? "other" : accessToken)),
                        "c_hash": TestIdP.quoted(rs256.halfHash(of: mode == .wrongCodeHash ? "other" : code)),
                    ]))
                return .json(
                    #"{"access_token":"\#(accessToken)","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1","id_token":"\#(idToken)"}"#
                )
            case "refresh_token":
                guard form["refresh_token"] == "rt-1" else {
                    return .json(#"{"error":"invalid_grant"}"#, status: .badRequest)
                }
                let accessToken = "at-refreshed-2"
                if mode == .noIDTokenOnRefresh {
                    return .json(#"{"access_token":"\#(accessToken)","token_type":"Bearer","expires_in":3600}"#)
                }
                let idToken = try signer.sign(
                    claims: TestIdP.claims([
                        "sub": TestIdP.quoted(refreshSubject), "nonce": nil,
                        "at_hash": TestIdP.quoted(rs256.halfHash(of: accessToken)),
                    ]))
                return .json(
                    #"{"access_token":"\#(accessToken)","token_type":"bearer","expires_in":3600,"refresh_token":"rt-2","id_token":"\#(idToken)"}"#
                )
            default:
                return .json(#"{"error":"unsupported_grant_type"}"#, status: .badRequest)
            }
        }

        func requests(to url: String) -> [InMemoryHTTPTransport.RecordedRequest] {
            transport.requests.filter { $0.urlWithoutQuery == url }
        }
    }

    static func relyingParty(_ provider: Provider) -> OpenIDRelyingParty {
        OpenIDRelyingParty(
            issuer: TestIdP.issuer, clientID: TestIdP.clientID, authentication: .none, transport: provider.transport,
            clock: FixedClock(unixSeconds: TestIdP.now))
    }

    /// Starts a login and returns the request and the query the provider would redirect back with.
    static func startLogin(_ rp: OpenIDRelyingParty, _ provider: Provider, code: String = "SplxlOBeZQQYbYS6WxSbIA")
        async throws -> (AuthorizationRequest, String)
    {
        let request = try await rp.authorizationRequest(redirectURI: TestIdP.redirectURI, scopes: ["openid", "email"])
        provider.pending.value = (request.nonce, request.pkce.challenge)
        let query =
            "code=\(FormURLEncoding.escape(code))&state=\(FormURLEncoding.escape(request.state))"
            + "&iss=\(FormURLEncoding.escape(TestIdP.issuer))"
        return (request, query)
    }

    @Test("a full login: discovery, authorization request, callback, code exchange and ID-token verification")
    func completeLogin() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)

        #expect(request.url.absoluteString.hasPrefix(TestIdP.authorizationURL + "?"))
        #expect(request.url.absoluteString.contains("code_challenge=\(request.pkce.challenge)"))
        #expect(request.url.absoluteString.contains("code_challenge_method=S256"))
        #expect(request.url.absoluteString.contains("scope=openid+email"))

        let login = try await rp.completeLogin(callbackQuery: query, request: request)
        #expect(login.claims.subject == TestIdP.subject)
        #expect(login.claims.nonce == request.nonce)
        #expect(login.claims.codeHash == JWSAlgorithm.rs256.halfHash(of: "SplxlOBeZQQYbYS6WxSbIA"))
        #expect(login.claims.accessTokenHash == JWSAlgorithm.rs256.halfHash(of: "at-login-1"))
        #expect(login.tokens.accessToken == "at-login-1")
        #expect(login.tokens.refreshToken == "rt-1")
        #expect(login.tokens.accessTokenExpiresAt == Date(timeIntervalSince1970: TimeInterval(TestIdP.now + 3600)))

        let tokenRequest = try #require(provider.requests(to: TestIdP.tokenURL).first)
        #expect(tokenRequest.formParameters["code_verifier"] == request.pkce.verifier)
        #expect(tokenRequest.formParameters["code"] == "SplxlOBeZQQYbYS6WxSbIA")
        #expect(provider.requests(to: TestIdP.discoveryURL).count == 1, "discovery is fetched once and cached")
        #expect(provider.requests(to: TestIdP.jwksURL).count == 1)
    }

    @Test("a callback without iss from an RFC 9207 provider is refused before the code is exchanged")
    func missingIssuerParameter() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, _) = try await Self.startLogin(rp, provider)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await rp.completeLogin(callbackQuery: "code=abc&state=\(request.state)", request: request)
        }
        #expect(error?.code == .missingIssuerParameter)
        #expect(provider.requests(to: TestIdP.tokenURL).isEmpty)
    }

    @Test("a forged state is refused before the code is exchanged")
    func forgedState() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, _) = try await Self.startLogin(rp, provider)
        let query = "code=abc&state=forged&iss=\(FormURLEncoding.escape(TestIdP.issuer))"
        let error = await #expect(throws: OIDCError.self) {
            _ = try await rp.completeLogin(callbackQuery: query, request: request)
        }
        #expect(error?.code == .stateMismatch)
        #expect(provider.requests(to: TestIdP.tokenURL).isEmpty)
    }

    @Test(
        "an ID token that does not belong to this login is refused",
        arguments: [
            (Mode.wrongNonce, OIDCError.Code.nonceMismatch), (.wrongCodeHash, .codeHashMismatch),
            (.wrongAccessTokenHash, .accessTokenHashMismatch),
        ])
    func tokenNotForThisLogin(_ mode: Mode, _ code: OIDCError.Code) async throws {
        let provider = try Provider()
        provider.mode.value = mode
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await rp.completeLogin(callbackQuery: query, request: request)
        }
        #expect(error?.code == code)
    }

    @Test("a code the provider rejects is invalid_grant")
    func providerRejectsCode() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)
        // Another request's verifier: the provider's PKCE check fails.
        provider.pending.value = (request.nonce, PKCE().challenge)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await rp.completeLogin(callbackQuery: query, request: request)
        }
        #expect(error?.code == .invalidGrant)
    }

    @Test("refresh verifies the new ID token against the original claims and takes the rotated refresh token")
    func refresh() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)
        let login = try await rp.completeLogin(callbackQuery: query, request: request)

        let refreshed = try await rp.refresh(login.tokens, previousClaims: login.claims)
        #expect(refreshed.tokens.accessToken == "at-refreshed-2")
        #expect(refreshed.tokens.refreshToken == "rt-2")
        #expect(refreshed.tokens.tokenType == "Bearer")
        #expect(refreshed.claims.subject == login.claims.subject)
        let refreshRequest = try #require(provider.requests(to: TestIdP.tokenURL).last)
        #expect(refreshRequest.formParameters["grant_type"] == "refresh_token")
        #expect(refreshRequest.formParameters["refresh_token"] == "rt-1")
    }

    @Test("refresh returning an ID token for another subject is refresh_claims_mismatch")
    func refreshSubjectChanged() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)
        let login = try await rp.completeLogin(callbackQuery: query, request: request)
        provider.refreshSubject.value = "someone-else"
        let error = await #expect(throws: OIDCError.self) {
            _ = try await rp.refresh(login.tokens, previousClaims: login.claims)
        }
        #expect(error?.code == .refreshClaimsMismatch)
    }

    @Test("refresh without a new ID token keeps the previous claims and refresh token")
    func refreshWithoutIDToken() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)
        let login = try await rp.completeLogin(callbackQuery: query, request: request)
        provider.mode.value = .noIDTokenOnRefresh
        let refreshed = try await rp.refresh(login.tokens, previousClaims: login.claims)
        #expect(refreshed.claims.subject == login.claims.subject)
        #expect(refreshed.claims.nonce == login.claims.nonce)
        #expect(refreshed.tokens.refreshToken == "rt-1")
        #expect(refreshed.tokens.idToken == nil)
    }

    @Test("refresh without a refresh token is invalid_grant and sends nothing")
    func refreshWithoutRefreshToken() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)
        var login = try await rp.completeLogin(callbackQuery: query, request: request)
        login.tokens.refreshToken = nil
        let before = provider.requests(to: TestIdP.tokenURL).count
        let error = await #expect(throws: OIDCError.self) {
            _ = try await rp.refresh(login.tokens, previousClaims: login.claims)
        }
        #expect(error?.code == .invalidGrant)
        #expect(provider.requests(to: TestIdP.tokenURL).count == before)
    }

    @Test("userinfo and revocation go to the discovered endpoints")
    func userInfoAndRevocation() async throws {
        let provider = try Provider()
        let rp = Self.relyingParty(provider)
        let (request, query) = try await Self.startLogin(rp, provider)
        let login = try await rp.completeLogin(callbackQuery: query, request: request)

        let claims = try await rp.userInfo(for: login)
        #expect(claims["email"] == .string("janedoe@example.com"))
        #expect(
            provider.requests(to: TestIdP.userInfoURL).first?.request.headerFields[.authorization]
                == "Bearer at-login-1")

        try await rp.revoke(login.tokens)
        var accessOnly = login.tokens
        accessOnly.refreshToken = nil
        try await rp.revoke(accessOnly)
        let revocations = provider.requests(to: TestIdP.revocationURL)
        // The refresh token first, then the access token; without a refresh token, the access token alone.
        #expect(revocations.map { $0.formParameters["token"] } == ["rt-1", "at-login-1", "at-login-1"])
        #expect(
            revocations.map { $0.formParameters["token_type_hint"] } == [
                "refresh_token", "access_token", "access_token",
            ])
        #expect(provider.requests(to: TestIdP.discoveryURL).count == 1)
    }

    @Test("verified(_:expectations:) needs an ID token")
    func verifiedWithoutIDToken() async throws {
        let rp = Self.relyingParty(try Provider())
        let error = await #expect(throws: OIDCError.self) {
            _ = try await rp.verified(TokenSet(accessToken: "at"), expectations: IDTokenExpectations())
        }
        #expect(error?.code == .invalidTokenResponse)
    }
}
