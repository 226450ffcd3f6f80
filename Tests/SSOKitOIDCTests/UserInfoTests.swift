import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

@Suite("UserInfoClient")
struct UserInfoTests {
    static let accessToken = "userinfo-at-0cc175b9c0f1b6a831c399e269772661"

    static func client(_ response: HTTPTransportResponse) throws -> (UserInfoClient, InMemoryHTTPTransport) {
        let transport = InMemoryHTTPTransport(routes: [TestIdP.userInfoURL: response])
        return (
            try UserInfoClient(endpoint: try #require(URL(string: TestIdP.userInfoURL)), transport: transport),
            transport
        )
    }

    @Test("claims are returned when sub equals the ID token's")
    func subjectMatches() async throws {
        let (client, _) = try Self.client(
            .json(#"{"sub":"248289761001","name":"Jane Doe","email":"janedoe@example.com","email_verified":true}"#))
        let claims = try await client.fetch(accessToken: Self.accessToken, expectedSubject: TestIdP.subject)
        #expect(claims["sub"] == .string(TestIdP.subject))
        #expect(claims["name"] == .string("Jane Doe"))
        #expect(claims["email_verified"] == .bool(true))
    }

    @Test("the access token is sent as a Bearer header with a GET")
    func bearerHeader() async throws {
        let (client, transport) = try Self.client(.json(#"{"sub":"248289761001"}"#))
        _ = try await client.fetch(accessToken: Self.accessToken, expectedSubject: TestIdP.subject)
        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.request.method == .get)
        #expect(request.urlWithoutQuery == TestIdP.userInfoURL)
        #expect(request.request.headerFields[.authorization] == "Bearer \(Self.accessToken)")
        #expect(request.body == nil)
        #expect(!(request.request.path ?? "").contains(Self.accessToken), "the token is not put in the URL")
    }

    @Test(
        "a different sub is userinfo_subject_mismatch",
        arguments: [
            #"{"sub":"someone-else"}"#, #"{"sub":"248289761002"}"#, #"{"sub":""}"#, #"{"sub":"248289761001 "}"#,
        ])
    func subjectMismatch(_ body: String) async throws {
        let (client, _) = try Self.client(.json(body))
        let error = await #expect(throws: OIDCError.self) {
            _ = try await client.fetch(accessToken: Self.accessToken, expectedSubject: TestIdP.subject)
        }
        #expect(error?.code == .userInfoSubjectMismatch)
    }

    @Test(
        "a missing or non-string sub, or a body that is not a JSON object, is invalid_userinfo",
        arguments: [
            #"{"name":"Jane"}"#, #"{"sub":248289761001}"#, #"{"sub":null}"#, "[]", "eyJhbGciOiJSUzI1NiJ9.e30.sig", "",
        ])
    func invalid(_ body: String) async throws {
        let (client, _) = try Self.client(.json(body))
        let error = await #expect(throws: OIDCError.self) {
            _ = try await client.fetch(accessToken: Self.accessToken, expectedSubject: TestIdP.subject)
        }
        #expect(error?.code == .invalidUserInfo)
    }

    @Test("a non-200 answer is unexpected_status", arguments: [401, 403, 500])
    func unexpectedStatus(_ status: Int) async throws {
        let (client, _) = try Self.client(.json(#"{"error":"invalid_token"}"#, status: .init(code: status)))
        let error = await #expect(throws: OIDCError.self) {
            _ = try await client.fetch(accessToken: Self.accessToken, expectedSubject: TestIdP.subject)
        }
        #expect(error?.code == .unexpectedStatus)
        #expect(error.map { !$0.description.contains(Self.accessToken) } == true)
    }

    @Test("a transport failure is transport_failed")
    func transportFailure() async throws {
        let transport = InMemoryHTTPTransport { _ in throw HTTPTransportError(.timeout, "slow") }
        let client = try UserInfoClient(endpoint: try #require(URL(string: TestIdP.userInfoURL)), transport: transport)
        let error = await #expect(throws: OIDCError.self) {
            _ = try await client.fetch(accessToken: Self.accessToken, expectedSubject: TestIdP.subject)
        }
        #expect(error?.code == .transportFailed)
    }

    @Test("the endpoint must be https or loopback")
    func insecureEndpoint() throws {
        let error = #expect(throws: OIDCError.self) {
            _ = try UserInfoClient(
                endpoint: try #require(URL(string: "http://idp.example.com/userinfo")),
                transport: InMemoryHTTPTransport(routes: [:]))
        }
        #expect(error?.code == .insecureURL)
    }
}
