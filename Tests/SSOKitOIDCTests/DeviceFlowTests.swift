import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

@Suite("DeviceAuthorizationClient")
struct DeviceFlowTests {
    static let deviceCode = "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS"

    static func deviceResponse(_ changes: [String: String?] = [:]) -> String {
        var members: [String: String] = [
            "device_code": TestIdP.quoted(deviceCode), "user_code": #""WDJB-MJHT""#,
            "verification_uri": #""https://idp.example.com/device""#,
            "verification_uri_complete": #""https://idp.example.com/device?user_code=WDJB-MJHT""#,
            "expires_in": "1800", "interval": "5",
        ]
        for (name, value) in changes { members[name] = value }
        return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    static let tokens = HTTPTransportResponse.json(
        #"{"access_token":"device-at","token_type":"Bearer","expires_in":60}"#)

    static func oauthError(_ code: String) -> HTTPTransportResponse {
        .json(#"{"error":"\#(code)"}"#, status: .badRequest)
    }

    /// An in-memory provider: the device endpoint answers `device`, the token endpoint answers `tokenAnswers` in
    /// order (repeating the last one); `sleep` records the intervals and moves `clock` on by them.
    final class Provider: Sendable {
        let clock = MutableClock()
        let slept = Shared<[Int64]>([])
        let tokenAnswers: Shared<[HTTPTransportResponse]>
        let transport: InMemoryHTTPTransport

        init(device: HTTPTransportResponse = .json(deviceResponse()), tokenAnswers: [HTTPTransportResponse]) {
            let answers = Shared(tokenAnswers)
            self.tokenAnswers = answers
            transport = InMemoryHTTPTransport { request in
                switch request.urlWithoutQuery {
                case TestIdP.deviceURL: return device
                case TestIdP.tokenURL:
                    return answers.withLock { queue in
                        queue.count > 1
                            ? queue.removeFirst() : (queue.first ?? .init(response: .init(status: .notFound), body: []))
                    }
                default: return .init(response: .init(status: .notFound), body: [])
                }
            }
        }

        func client(sleep: DeviceAuthorizationClient.Sleep? = nil) throws -> DeviceAuthorizationClient {
            let tokenClient = try TokenClient(
                tokenEndpoint: try #require(URL(string: TestIdP.tokenURL)), clientID: TestIdP.clientID,
                authentication: .none, transport: transport, clock: clock)
            let clock = self.clock
            let slept = self.slept
            return try DeviceAuthorizationClient(
                endpoint: try #require(URL(string: TestIdP.deviceURL)), tokenClient: tokenClient, clock: clock,
                sleep: sleep ?? { seconds in
                    slept.withLock { $0.append(seconds) }
                    clock.advance(by: TimeInterval(seconds))
                })
        }

        var tokenRequests: [InMemoryHTTPTransport.RecordedRequest] {
            transport.requests.filter { $0.urlWithoutQuery == TestIdP.tokenURL }
        }
    }

    // MARK: - Start

    @Test("start posts client_id and scope and reads the user code")
    func start() async throws {
        let provider = Provider(tokenAnswers: [])
        let authorization = try await provider.client().start(scopes: ["openid", "profile"])
        #expect(authorization.deviceCode == Self.deviceCode)
        #expect(authorization.userCode == "WDJB-MJHT")
        #expect(authorization.verificationURI == "https://idp.example.com/device")
        #expect(authorization.verificationURIComplete == "https://idp.example.com/device?user_code=WDJB-MJHT")
        #expect(authorization.interval == 5)
        #expect(authorization.expiresAt == Date(timeIntervalSince1970: TimeInterval(TestIdP.now + 1800)))
        let request = try #require(provider.transport.requests.first)
        #expect(request.urlWithoutQuery == TestIdP.deviceURL)
        #expect(request.request.method == .post)
        #expect(request.formParameters["scope"] == "openid profile")
        #expect(request.formParameters["client_id"] == TestIdP.clientID)
    }

    @Test(
        "the polling interval defaults to 5 s and is kept within 1...60 s",
        arguments: [(nil, Int64(5)), ("0", 1), ("1", 1), ("7", 7), ("60", 60), ("3600", 60)] as [(String?, Int64)])
    func interval(_ json: String?, _ expected: Int64) async throws {
        let provider = Provider(device: .json(Self.deviceResponse(["interval": json])), tokenAnswers: [])
        #expect(try await provider.client().start(scopes: ["openid"]).interval == expected)
    }

    @Test("the legacy verification_url member is accepted, verification_uri_complete is optional")
    func legacyVerificationURL() async throws {
        let device = Self.deviceResponse([
            "verification_uri": nil, "verification_uri_complete": nil,
            "verification_url": #""https://idp.example.com/legacy""#,
        ])
        let authorization = try await Provider(device: .json(device), tokenAnswers: []).client().start(scopes: [
            "openid"
        ])
        #expect(authorization.verificationURI == "https://idp.example.com/legacy")
        #expect(authorization.verificationURIComplete == nil)
    }

    @Test(
        "a device response lacking a required member is invalid_token_response",
        arguments: [
            ["device_code": nil], ["user_code": nil], ["verification_uri": nil], ["expires_in": nil],
            ["expires_in": "0"], ["device_code": "1"],
        ]
            as [[String: String?]])
    func startMalformed(_ changes: [String: String?]) async throws {
        let provider = Provider(device: .json(Self.deviceResponse(changes)), tokenAnswers: [])
        let error = await #expect(throws: OIDCError.self) { _ = try await provider.client().start(scopes: ["openid"]) }
        #expect(error?.code == .invalidTokenResponse)
    }

    @Test(
        "start failures are mapped",
        arguments: [
            (Self.oauthError("invalid_client"), OIDCError.Code.invalidClient),
            (Self.oauthError("invalid_scope"), .invalidScope),
            (.text("<html>oops</html>", status: .internalServerError), .unexpectedStatus),
        ])
    func startFailures(_ response: HTTPTransportResponse, _ code: OIDCError.Code) async throws {
        let provider = Provider(device: response, tokenAnswers: [])
        let error = await #expect(throws: OIDCError.self) { _ = try await provider.client().start(scopes: ["openid"]) }
        #expect(error?.code == code)
    }

    @Test("the device endpoint must be https or loopback")
    func insecureEndpoint() throws {
        let transport = InMemoryHTTPTransport(routes: [:])
        let tokenClient = try TokenClient(
            tokenEndpoint: try #require(URL(string: TestIdP.tokenURL)), clientID: "c", authentication: .none,
            transport: transport)
        let error = #expect(throws: OIDCError.self) {
            _ = try DeviceAuthorizationClient(
                endpoint: try #require(URL(string: "http://idp.example.com/device")), tokenClient: tokenClient)
        }
        #expect(error?.code == .insecureURL)
    }

    // MARK: - Polling

    @Test("authorization_pending keeps polling at the interval until tokens arrive")
    func pendingThenTokens() async throws {
        let provider = Provider(tokenAnswers: [
            Self.oauthError("authorization_pending"), Self.oauthError("authorization_pending"), Self.tokens,
        ])
        let client = try provider.client()
        let tokens = try await client.poll(try await client.start(scopes: ["openid"]))
        #expect(tokens.accessToken == "device-at")
        #expect(provider.slept.value == [5, 5, 5], "waits before every poll, never polls early")
        let requests = provider.tokenRequests
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.formParameters["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code")
            #expect(request.formParameters["device_code"] == Self.deviceCode)
            #expect(request.formParameters["client_id"] == TestIdP.clientID)
        }
    }

    @Test("slow_down adds 5 seconds to the interval for the rest of the polling")
    func slowDown() async throws {
        let provider = Provider(tokenAnswers: [
            Self.oauthError("authorization_pending"), Self.oauthError("slow_down"),
            Self.oauthError("authorization_pending"),
            Self.oauthError("slow_down"), Self.tokens,
        ])
        let client = try provider.client()
        _ = try await client.poll(try await client.start(scopes: ["openid"]))
        #expect(provider.slept.value == [5, 5, 10, 10, 15])
        #expect(provider.tokenRequests.count == 5)
    }

    @Test(
        "a final error from the provider ends polling with that error",
        arguments: [
            ("access_denied", OIDCError.Code.accessDenied), ("expired_token", .expiredToken),
            ("invalid_grant", .invalidGrant), ("invalid_client", .invalidClient),
        ])
    func finalErrors(_ error: String, _ code: OIDCError.Code) async throws {
        let provider = Provider(tokenAnswers: [Self.oauthError("authorization_pending"), Self.oauthError(error)])
        let client = try provider.client()
        let authorization = try await client.start(scopes: ["openid"])
        let thrown = await #expect(throws: OIDCError.self) { _ = try await client.poll(authorization) }
        #expect(thrown?.code == code)
        #expect(provider.slept.value == [5, 5])
        #expect(provider.tokenRequests.count == 2)
    }

    @Test("once the clock passes expiresAt polling stops with expired_token")
    func clockPastExpiry() async throws {
        let provider = Provider(
            device: .json(Self.deviceResponse(["expires_in": "12", "interval": "5"])),
            tokenAnswers: [Self.oauthError("authorization_pending")])
        let client = try provider.client()
        let authorization = try await client.start(scopes: ["openid"])
        let error = await #expect(throws: OIDCError.self) { _ = try await client.poll(authorization) }
        #expect(error?.code == .expiredToken)
        // Polls at t+5 and t+10; the wait to t+15 crosses the deadline (12 s).
        #expect(provider.slept.value == [5, 5, 5])
        #expect(provider.clock.unixSeconds == TestIdP.now + 15)
        #expect(provider.tokenRequests.count <= 3)
        #expect(provider.tokenRequests.count >= 2)
    }

    @Test("an authorization that has already expired is not polled at all")
    func alreadyExpired() async throws {
        let provider = Provider(tokenAnswers: [Self.tokens])
        let client = try provider.client()
        let authorization = try await client.start(scopes: ["openid"])
        provider.clock.advance(by: 1800)
        let error = await #expect(throws: OIDCError.self) { _ = try await client.poll(authorization) }
        #expect(error?.code == .expiredToken)
        #expect(provider.slept.value.isEmpty)
        #expect(provider.tokenRequests.isEmpty)
    }

    @Test("a cancelled wait ends polling with device_flow_timed_out")
    func cancelledSleep() async throws {
        struct Cancelled: Error {}
        let provider = Provider(tokenAnswers: [Self.oauthError("authorization_pending")])
        let client = try provider.client(sleep: { _ in throw Cancelled() })
        let authorization = try await client.start(scopes: ["openid"])
        let error = await #expect(throws: OIDCError.self) { _ = try await client.poll(authorization) }
        #expect(error?.code == .deviceFlowTimedOut)
        #expect(provider.tokenRequests.isEmpty)
    }
}
