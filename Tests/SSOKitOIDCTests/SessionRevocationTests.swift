import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

/// `OpenIDRelyingParty.revokeSession`: what a logout asks of the provider, and how every answer is reported
/// instead of thrown.
@Suite("Session revocation and end session")
struct SessionRevocationTests {
    /// How the revocation endpoint answers.
    enum Answer: Sendable {
        case ok, demandsClientAuthentication, serverError, hangs, unsupportedTokenType
    }

    /// A provider whose discovery, revocation and end-session endpoints the test controls.
    final class Provider: Sendable {
        let answer: Shared<Answer>
        let transport: InMemoryHTTPTransport

        init(_ answer: Answer, discoveryExtra: [String: String] = [:]) {
            let shared = Shared(answer)
            self.answer = shared
            let discovery = TestIdP.discoveryDocument(extra: discoveryExtra)
            transport = InMemoryHTTPTransport { request in
                switch request.urlWithoutQuery {
                case TestIdP.discoveryURL: return .json(discovery)
                case TestIdP.revocationURL: return try await Self.revocation(request, shared.value)
                default: return .init(response: .init(status: .notFound), body: [])
                }
            }
        }

        static func revocation(_ request: InMemoryHTTPTransport.RecordedRequest, _ answer: Answer) async throws
            -> HTTPTransportResponse
        {
            let authenticated = request.request.headerFields[.authorization] == "Basic c3Nva2l0LWNsaWVudDpzM2NyZXQ="
            switch answer {
            case .ok: return .init(response: .init(status: .ok), body: [])
            case .demandsClientAuthentication:
                return authenticated
                    ? .init(response: .init(status: .ok), body: [])
                    : .json(#"{"error":"invalid_client"}"#, status: .unauthorized)
            case .serverError: return .text("<html>down</html>", status: .internalServerError)
            case .hangs:
                try await Task.sleep(for: .seconds(600))
                return .init(response: .init(status: .ok), body: [])
            case .unsupportedTokenType:
                return request.formParameters["token_type_hint"] == "access_token"
                    ? .json(#"{"error":"unsupported_token_type"}"#, status: .badRequest)
                    : .init(response: .init(status: .ok), body: [])
            }
        }

        var revocations: [InMemoryHTTPTransport.RecordedRequest] {
            transport.requests.filter { $0.urlWithoutQuery == TestIdP.revocationURL }
        }
    }

    static func party(_ provider: Provider, authentication: ClientAuthentication = .none) -> OpenIDRelyingParty {
        OpenIDRelyingParty(
            issuer: TestIdP.issuer, clientID: TestIdP.clientID, authentication: authentication,
            transport: provider.transport, clock: FixedClock(unixSeconds: TestIdP.now))
    }

    @Test("the refresh token is revoked first, then the access token, authenticated as the client")
    func order() async throws {
        let provider = Provider(.demandsClientAuthentication)
        let outcome = await Self.party(provider, authentication: .clientSecretBasic("s3cret")).revokeSession(
            refreshToken: "rt-1", accessToken: "at-1")
        #expect(outcome.revoked)
        #expect(outcome.error == nil)
        #expect(provider.revocations.map { $0.formParameters["token"] } == ["rt-1", "at-1"])
        #expect(provider.revocations.map { $0.formParameters["token_type_hint"] } == ["refresh_token", "access_token"])
        #expect(provider.revocations.allSatisfy { $0.request.headerFields[.authorization] != nil })
    }

    @Test(
        "every failure is reported, not thrown",
        arguments: [
            (Answer.demandsClientAuthentication, OIDCError.Code.invalidClient),
            (.serverError, .unexpectedStatus),
        ])
    func failures(_ answer: Answer, _ code: OIDCError.Code) async throws {
        let provider = Provider(answer)
        let outcome = await Self.party(provider).revokeSession(refreshToken: "rt-1", accessToken: "at-1")
        #expect(!outcome.revoked)
        #expect(outcome.error?.code == code)
        #expect(provider.revocations.count == 1, "the first failure ends the attempt")
    }

    @Test("a hanging revocation endpoint ends at the deadline with timed_out")
    func deadline() async throws {
        let provider = Provider(.hangs)
        let started = ContinuousClock.now
        let outcome = await Self.party(provider).revokeSession(
            refreshToken: "rt-1", accessToken: nil, timeout: .milliseconds(200))
        #expect(!outcome.revoked)
        #expect(outcome.error?.code == .timedOut)
        // Far below the 600 s hang, with room for a test run that keeps both cooperative threads busy.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("no revocation endpoint, an unreachable provider, or nothing to revoke")
    func unavailable() async throws {
        let minimal =
            #"{"issuer":"https://idp.example.com","authorization_endpoint":"https://idp.example.com/a","#
            + #""token_endpoint":"https://idp.example.com/t","jwks_uri":"https://idp.example.com/j"}"#
        let noEndpoint = InMemoryHTTPTransport(routes: [TestIdP.discoveryURL: .json(minimal)])
        let down = InMemoryHTTPTransport { _ in throw HTTPTransportError(.connectionFailed, "refused") }
        var outcomes: [RevocationOutcome] = []
        for transport in [noEndpoint, down] {
            let party = OpenIDRelyingParty(
                issuer: TestIdP.issuer, clientID: TestIdP.clientID, authentication: .none, transport: transport)
            outcomes.append(await party.revokeSession(refreshToken: "rt", accessToken: "at"))
        }
        outcomes.append(await Self.party(Provider(.ok)).revokeSession(refreshToken: nil, accessToken: nil))
        #expect(outcomes.map(\.revoked) == [false, false, false])
        #expect(outcomes.map { $0.error?.code } == [.unsupportedFeature, .discoveryFailed, .invalidRequest])
    }

    @Test("a provider that cannot revoke access tokens still counts as revoked once the refresh token is")
    func unsupportedTokenType() async throws {
        let provider = Provider(.unsupportedTokenType)
        let both = await Self.party(provider).revokeSession(refreshToken: "rt-1", accessToken: "at-1")
        #expect(both.revoked)
        let accessOnly = await Self.party(provider).revokeSession(refreshToken: nil, accessToken: "at-1")
        #expect(!accessOnly.revoked)
        #expect(accessOnly.error?.code == .unsupportedTokenType)
    }

    @Test("the end-session URL carries id_token_hint, client_id and post_logout_redirect_uri (RP-Initiated Logout §2)")
    func endSession() async throws {
        let provider = Provider(
            .ok, discoveryExtra: ["end_session_endpoint": #""https://idp.example.com/logout?tenant=a""#])
        let request = try await Self.party(provider).endSessionRequest(
            idTokenHint: "eyJ.x.y", postLogoutRedirectURI: "http://127.0.0.1:9/bye", state: "s 1")
        #expect(
            request.url.absoluteString
                == "https://idp.example.com/logout?tenant=a&id_token_hint=eyJ.x.y&client_id=ssokit-client"
                + "&post_logout_redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fbye&state=s+1")
        let without = try await Self.party(provider).endSessionRequest(idTokenHint: nil)
        #expect(without.url.absoluteString == "https://idp.example.com/logout?tenant=a&client_id=ssokit-client")
        let error = await #expect(throws: OIDCError.self) {
            _ = try await Self.party(Provider(.ok)).endSessionRequest(idTokenHint: "t")
        }
        #expect(error?.code == .unsupportedFeature)
    }
}
