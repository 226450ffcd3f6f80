import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitSAML
import Testing

/// A web app's AuthnRequest intercepted: completed through the IdP's login form and session, and answered with a
/// minimal auto-post form, verified first when the payload says `verify_response`.
@Suite struct SAMLInterceptTests {
    static let acs = "https://sp.example.com/saml/acs"

    /// An in-memory IdP whose SSO endpoint answers with `fixtures/saml/responses/<response>`.
    func harness(response: String = "both-signed-valid.xml", verify: Bool = true) throws -> AdapterHarness {
        guard let fixtures = FixtureLoader.fixturesDirectory() else { throw CocoaError(.fileNoSuchFile) }
        let xml = try Data(contentsOf: fixtures.appendingPathComponent("saml/responses/\(response)"))
        let clock = AdjustableClock()
        let idp = InMemoryIdentityProvider(
            clock: clock, samlPage: .init(response: xml.base64EncodedString(), acs: Self.acs))
        return try AdapterHarness(
            payloads: [AdapterHarness.samlPayload(extra: verify ? #", "verify_response": true"# : "")], idp: idp,
            clock: clock, directory: fixtures.path)
    }

    /// The web app's redirect-binding AuthnRequest with `id` (the fixtures answer `_ssokit-req-0001`).
    func request(id: String = "_ssokit-req-0001", relayState: String? = "r1", ui: Bool = true) throws
        -> SSOKitExtension.AuthorizationRequest
    {
        let authn = AuthnRequest(
            id: id, issueInstant: Date(timeIntervalSince1970: 1_767_225_600), destination: "https://idp.test/saml/sso",
            assertionConsumerServiceURL: Self.acs, issuer: "https://sp.example.com/saml")
        let url = try RedirectBinding.url(
            destination: "https://idp.test/saml/sso", xml: authn.xml, relayState: relayState)
        return SSOKitExtension.AuthorizationRequest(
            url: URL(string: url), callerBundleIdentifier: "com.apple.Safari", isUserInterfaceEnabled: ui)
    }

    @Test func theIdPsPageBecomesACompactVerifiedAutoPostForm() async throws {
        let harness = try harness()
        let interaction = try #require(await harness.adapter.authorize(try request()).interaction)
        let result = await harness.adapter.resume(interaction: interaction.id, with: credentials(harness))
        let response = try #require(result.response, "\(result)")
        #expect(response.status == 200)
        #expect(response[.cacheControl] == "no-store")
        #expect(response[.contentType] == "text/html; charset=utf-8")
        #expect(response[.contentSecurityPolicy]?.contains("form-action https://sp.example.com") == true)
        let content = try AutoPostFormParser().parse(response.body)
        #expect(content.action == Self.acs && content.kind == .response && content.relayState == "r1")
        #expect(response.countedBytes < 1500)
        #expect(response.body.count > content.message.utf8.count)
    }

    @Test func oidcAndSAMLOnOneIdPOriginShareOneLoginAndEndItTogether() async throws {
        guard let fixtures = FixtureLoader.fixturesDirectory() else { throw CocoaError(.fileNoSuchFile) }
        let xml = try Data(contentsOf: fixtures.appendingPathComponent("saml/responses/both-signed-valid.xml"))
        let clock = AdjustableClock()
        let idp = InMemoryIdentityProvider(
            clock: clock, samlPage: .init(response: xml.base64EncodedString(), acs: Self.acs))
        let harness = try AdapterHarness(
            payloads: [
                AdapterHarness.oidcPayload(),
                AdapterHarness.samlPayload(extra: #", "verify_response": true"#),
            ], idp: idp, clock: clock, directory: fixtures.path)
        // One login through the OIDC payload: the IdP's session cookie is kept for its origin.
        #expect(await harness.login("com.example.mail").response?.status == 200)
        // The web app's AuthnRequest to the same origin is answered at once: no second login form.
        let intercepted = await harness.adapter.authorize(try request(ui: false))
        #expect(intercepted.response?.status == 200, "\(intercepted)")
        #expect(harness.idp.requestCounts["/saml/login"] == nil)
        // A logout that ends the IdP session ends it for the SAML payload too.
        let logout = await harness.adapter.authorize(
            harness.operation(.logout, app: "com.example.mail", options: ["end_session": "true"]))
        #expect(logout.response?.status == 200, "\(logout)")
        let afterLogout = await harness.adapter.authorize(try request(id: "_after-logout", ui: false))
        #expect(afterLogout.failure?.code == .notInteractive, "\(afterLogout)")
    }

    @Test func theIdPSessionAnswersTheNextRequestAndAReplayIsRefused() async throws {
        let harness = try harness()
        let interaction = try #require(await harness.adapter.authorize(try request()).interaction)
        #expect(await harness.adapter.resume(interaction: interaction.id, with: credentials(harness)).response != nil)
        // The fixed IdP answers again with the same assertion: verified, it is a replay.
        let again = await harness.adapter.authorize(try request(ui: false))
        #expect(again.failure?.reason.name == "replay_detected", "\(again)")
        #expect(harness.idp.requestCounts["/saml/login"] == 1)
    }

    @Test func withoutVerificationTheFormIsPassedOnAsTheIdPMadeIt() async throws {
        let harness = try harness(response: "nameid-edited-after-signing.xml", verify: false)
        let interaction = try #require(await harness.adapter.authorize(try request()).interaction)
        let result = await harness.adapter.resume(interaction: interaction.id, with: credentials(harness))
        #expect(result.response?.status == 200, "\(result)")
        #expect(await harness.adapter.authorize(try request(ui: false)).response?.status == 200)
    }

    @Test func aResponseThatFailsVerificationIsNotPassedOn() async throws {
        let tampered = try harness(response: "nameid-edited-after-signing.xml")
        let interaction = try #require(await tampered.adapter.authorize(try request()).interaction)
        let result = await tampered.adapter.resume(interaction: interaction.id, with: credentials(tampered))
        #expect(result.failure?.code == .failed && result.failure?.reason.name == "invalid_signature", "\(result)")
        let unsolicitedForThisRequest = try harness()
        let other = try #require(
            await unsolicitedForThisRequest.adapter.authorize(try request(id: "_another")).interaction)
        let mismatch = await unsolicitedForThisRequest.adapter.resume(
            interaction: other.id, with: credentials(unsolicitedForThisRequest))
        #expect(mismatch.failure?.reason.name == "in_response_to_mismatch", "\(mismatch)")
    }

    @Test func thePOSTBindingIsInterceptedToo() async throws {
        let harness = try harness(verify: false)
        let authn = AuthnRequest(
            id: "_ssokit-req-0001", issueInstant: Date(timeIntervalSince1970: 1_767_225_600),
            destination: "https://idp.test/saml/sso", assertionConsumerServiceURL: Self.acs,
            issuer: "https://sp.example.com/saml")
        let message = Data(authn.xml.utf8).base64EncodedString()
        // The in-memory IdP serves only GET: a POST to its SSO URL is passed on and its 404 is no Response.
        var post = SSOKitExtension.AuthorizationRequest(
            url: URL(string: "https://idp.test/saml/sso"), httpMethod: "POST",
            httpBody: Array(FormURLEncoding.encode([("SAMLRequest", message), ("RelayState", "r1")]).utf8),
            callerBundleIdentifier: "com.apple.Safari")
        #expect(await harness.adapter.authorize(post).failure?.reason == .idpError)
        // No AuthnRequest, or one that does not decode: not the SSO service's business, never sent with the session.
        post.httpBody = Array("RelayState=x".utf8)
        #expect(await harness.adapter.authorize(post) == .doNotHandle)
        post.httpBody = Array("SAMLRequest=x&new_email=attacker%40evil.example".utf8)
        #expect(await harness.adapter.authorize(post) == .doNotHandle)
        #expect(harness.idp.requestCounts["/saml/sso"] == 1)
    }

    @Test func anIdPPageWithARelayStateOver80BytesIsRefusedNotPassedOn() async throws {
        let harness = try harness(verify: false)
        var request = try request(relayState: nil)
        request.url = URL(
            string: try #require(request.url?.absoluteString) + "&RelayState=" + String(repeating: "r", count: 81))
        // The request's own RelayState breaks the binding (at most 80 bytes): it is not sent with the session.
        #expect(await harness.adapter.authorize(request) == .doNotHandle)
        #expect(harness.idp.requestCounts["/saml/sso"] == nil)
    }

    @Test func aNativeLoginNeedsTheIdPsMetadata() async throws {
        let harness = try harness()
        let result = await harness.adapter.authorize(
            SSOKitExtension.AuthorizationRequest(
                url: URL(string: "https://idp.test/saml/sso"), callerBundleIdentifier: "com.example.mail",
                operation: .login))
        #expect(result.failure == AuthorizationFailure(.failed, .configurationIncomplete, ""))
    }
}
