import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

@Suite("DiscoveryClient")
struct DiscoveryTests {
    static func transport(_ routes: [String: HTTPTransportResponse]) -> InMemoryHTTPTransport {
        InMemoryHTTPTransport(routes: routes)
    }

    @Test("fetches, validates and caches the document")
    func fetchAndCache() async throws {
        let transport = Self.transport([TestIdP.discoveryURL: .json(TestIdP.discoveryDocument())])
        let client = DiscoveryClient(transport: transport, clock: FixedClock(unixSeconds: TestIdP.now))

        let metadata = try await client.metadata(for: TestIdP.issuer)
        #expect(metadata.issuer == TestIdP.issuer)
        #expect(metadata.authorizationEndpoint.absoluteString == TestIdP.authorizationURL)
        #expect(metadata.tokenEndpoint.absoluteString == TestIdP.tokenURL)
        #expect(metadata.jwksURI.absoluteString == TestIdP.jwksURL)
        #expect(metadata.userInfoEndpoint?.absoluteString == TestIdP.userInfoURL)
        #expect(metadata.revocationEndpoint?.absoluteString == TestIdP.revocationURL)
        #expect(metadata.deviceAuthorizationEndpoint?.absoluteString == TestIdP.deviceURL)
        #expect(metadata.endSessionEndpoint == nil)
        #expect(metadata.authorizationResponseIssuerParameterSupported == false)
        #expect(metadata.codeChallengeMethodsSupported == ["S256"])
        #expect(metadata.idTokenSigningAlgorithmsSupported == ["RS256", "ES256", "EdDSA"])
        #expect(metadata.tokenEndpointAuthMethodsSupported == nil)

        let requests = transport.requests
        #expect(requests.count == 1)
        #expect(requests.first?.request.method == .get)
        #expect(requests.first?.urlWithoutQuery == TestIdP.discoveryURL)
        #expect(requests.first?.request.headerFields[.accept] == "application/json")

        let again = try await client.metadata(for: TestIdP.issuer)
        #expect(again.issuer == TestIdP.issuer)
        #expect(transport.requests.count == 1, "the second call is served from the cache")
    }

    @Test("a cached document is refetched after maximumAge")
    func cacheExpires() async throws {
        let transport = Self.transport([TestIdP.discoveryURL: .json(TestIdP.discoveryDocument())])
        let clock = MutableClock()
        let client = DiscoveryClient(transport: transport, clock: clock, maximumAge: 600)
        _ = try await client.metadata(for: TestIdP.issuer)
        clock.advance(by: 599)
        _ = try await client.metadata(for: TestIdP.issuer)
        #expect(transport.requests.count == 1)
        clock.advance(by: 2)
        _ = try await client.metadata(for: TestIdP.issuer)
        #expect(transport.requests.count == 2)
    }

    @Test("a document naming another issuer is issuer_mismatch")
    func issuerMismatch() async throws {
        let transport = Self.transport([
            TestIdP.discoveryURL: .json(TestIdP.discoveryDocument(issuer: "https://evil.example.com"))
        ])
        let client = DiscoveryClient(transport: transport)
        let error = await #expect(throws: OIDCError.self) { _ = try await client.metadata(for: TestIdP.issuer) }
        #expect(error?.code == .issuerMismatch)
        // A failure is not cached: the next call asks again.
        _ = try? await client.metadata(for: TestIdP.issuer)
        #expect(transport.requests.count == 2)
    }

    @Test(
        "a plain-http issuer off loopback is insecure_url before any request",
        arguments: [
            "http://idp.example.com", "http://127.0.0.1.nip.io", "http://10.0.0.1:8080/realm", "ftp://idp.example.com",
        ])
    func insecureIssuer(_ issuer: String) async throws {
        let transport = Self.transport([:])
        let client = DiscoveryClient(transport: transport)
        let error = await #expect(throws: OIDCError.self) { _ = try await client.metadata(for: issuer) }
        #expect(error?.code == .insecureURL)
        #expect(transport.requests.isEmpty)
    }

    @Test("an https document with a plain-http endpoint is insecure_url")
    func insecureEndpoint() async throws {
        let document = TestIdP.discoveryDocument(extra: ["token_endpoint": #""http://idp.example.com/token""#])
        let client = DiscoveryClient(transport: Self.transport([TestIdP.discoveryURL: .json(document)]))
        let error = await #expect(throws: OIDCError.self) { _ = try await client.metadata(for: TestIdP.issuer) }
        #expect(error?.code == .insecureURL)
    }

    @Test(
        "a loopback http issuer is allowed",
        arguments: ["http://127.0.0.1:9000", "http://localhost:9000", "http://[::1]:9000"])
    func loopbackIssuer(_ issuer: String) async throws {
        let document = """
            {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize","token_endpoint":"\(issuer)/token",\
            "jwks_uri":"\(issuer)/jwks"}
            """
        let transport = Self.transport(["\(issuer)/.well-known/openid-configuration": .json(document)])
        let metadata = try await DiscoveryClient(transport: transport).metadata(for: issuer)
        #expect(metadata.tokenEndpoint.absoluteString == "\(issuer)/token")
        #expect(transport.requests.count == 1)
    }

    @Test("a 404 is discovery_failed")
    func notFound() async throws {
        let client = DiscoveryClient(transport: Self.transport([:]))
        let error = await #expect(throws: OIDCError.self) { _ = try await client.metadata(for: TestIdP.issuer) }
        #expect(error?.code == .discoveryFailed)
    }

    @Test("a redirect is not followed and is discovery_failed")
    func redirect() async throws {
        var response = HTTPResponse(status: .found)
        response.headerFields[.location] = "https://evil.example.com/.well-known/openid-configuration"
        let transport = Self.transport([TestIdP.discoveryURL: HTTPTransportResponse(response: response, body: [])])
        let error = await #expect(throws: OIDCError.self) {
            _ = try await DiscoveryClient(transport: transport).metadata(for: TestIdP.issuer)
        }
        #expect(error?.code == .discoveryFailed)
        #expect(transport.requests.count == 1)
    }

    @Test("a transport failure is discovery_failed")
    func transportFailure() async throws {
        let transport = InMemoryHTTPTransport { _ in throw HTTPTransportError(.timeout, "timed out") }
        let error = await #expect(throws: OIDCError.self) {
            _ = try await DiscoveryClient(transport: transport).metadata(for: TestIdP.issuer)
        }
        #expect(error?.code == .discoveryFailed)
    }

    @Test(
        "a body that is not a JSON object is invalid_discovery_document",
        arguments: ["<html>Not here</html>", "", "[1,2]", #""issuer""#, #"{"issuer":"https://idp.example.com","#])
    func notJSON(_ body: String) async throws {
        let transport = Self.transport([TestIdP.discoveryURL: .text(body, status: .ok)])
        let error = await #expect(throws: OIDCError.self) {
            _ = try await DiscoveryClient(transport: transport).metadata(for: TestIdP.issuer)
        }
        #expect(error?.code == .invalidDiscoveryDocument)
    }

    @Test(
        "a document lacking a required member or with a malformed one is invalid_discovery_document",
        arguments: [
            ["jwks_uri": nil], ["token_endpoint": nil], ["authorization_endpoint": nil], ["issuer": nil],
            ["jwks_uri": "5"], ["jwks_uri": #""/relative/jwks""#], ["code_challenge_methods_supported": #"["S256",1]"#],
            ["id_token_signing_alg_values_supported": #""RS256""#],
        ] as [[String: String?]])
    func invalidDocument(_ changes: [String: String?]) async throws {
        let document = Self.document(changes: changes)
        let transport = Self.transport([TestIdP.discoveryURL: .json(document)])
        let error = await #expect(throws: OIDCError.self) {
            _ = try await DiscoveryClient(transport: transport).metadata(for: TestIdP.issuer)
        }
        #expect(error?.code == .invalidDiscoveryDocument, "\(document)")
    }

    @Test(
        "a trailing-slash issuer maps to the right well-known URL and must match exactly",
        arguments: [
            ("https://idp.example.com/", "https://idp.example.com/.well-known/openid-configuration"),
            (
                "https://idp.example.com/realms/main/",
                "https://idp.example.com/realms/main/.well-known/openid-configuration"
            ),
            (
                "https://idp.example.com/realms/main",
                "https://idp.example.com/realms/main/.well-known/openid-configuration"
            ),
        ])
    func trailingSlash(_ issuer: String, _ wellKnown: String) async throws {
        #expect(try ProviderMetadata.discoveryURL(forIssuer: issuer).absoluteString == wellKnown)
        let transport = Self.transport([wellKnown: .json(TestIdP.discoveryDocument(issuer: issuer))])
        let metadata = try await DiscoveryClient(transport: transport).metadata(for: issuer)
        #expect(metadata.issuer == issuer)
        #expect(transport.requests.map(\.urlWithoutQuery) == [wellKnown])

        // The same document fetched for the issuer spelled without (or with) the slash is a mismatch.
        let other = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer + "/"
        let mismatch = await #expect(throws: OIDCError.self) {
            _ = try await DiscoveryClient(transport: transport).metadata(for: other)
        }
        #expect(mismatch?.code == .issuerMismatch)
    }

    @Test("RFC 9207 support and optional endpoints are read from the document")
    func optionalMembers() throws {
        let text = TestIdP.discoveryDocument(extra: [
            "authorization_response_iss_parameter_supported": "true",
            "end_session_endpoint": #""https://idp.example.com/logout""#,
            "token_endpoint_auth_methods_supported": #"["client_secret_basic","private_key_jwt"]"#,
        ])
        let metadata = try ProviderMetadata(jsonBytes: Array(text.utf8), configuredIssuer: TestIdP.issuer)
        #expect(metadata.authorizationResponseIssuerParameterSupported)
        #expect(metadata.endSessionEndpoint?.absoluteString == "https://idp.example.com/logout")
        #expect(metadata.tokenEndpointAuthMethodsSupported == ["client_secret_basic", "private_key_jwt"])
        #expect(metadata.document["issuer"] == .string(TestIdP.issuer))
    }

    /// The default document with members replaced (raw JSON) or removed (`nil`).
    static func document(changes: [String: String?]) -> String {
        var members: [String: String] = [
            "issuer": TestIdP.quoted(TestIdP.issuer),
            "authorization_endpoint": TestIdP.quoted(TestIdP.authorizationURL),
            "token_endpoint": TestIdP.quoted(TestIdP.tokenURL), "jwks_uri": TestIdP.quoted(TestIdP.jwksURL),
        ]
        for (name, value) in changes { members[name] = value }
        return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }
}
