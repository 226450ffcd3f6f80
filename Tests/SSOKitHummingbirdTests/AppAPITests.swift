import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitTesting
import SSOKitTokenCache
import Testing

/// The app API's routes over a real adapter: a login with a credentials interaction, single sign-on for a second
/// app, and the caller checks.
@Suite struct AppAPITests {
    @Test func healthz() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let answer = try await client.get("/healthz")
            #expect(answer.status == .ok)
            #expect(answer.object == ["status": .string("ok")])
        }
    }

    @Test func aLoginAsksForCredentialsThenASecondAppSignsInWithoutAsking() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let first = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
            #expect(first.status == .ok)
            #expect(first.result == "needs_interaction")
            #expect(first.object["interaction"]?.objectValue?["kind"] == .string("credentials"))
            let id = try #require(first.interactionID)

            let answered = try await client.post("/v1/interactions/\(id)", uid: 1000, body: fixture.credentialsBody)
            #expect(answered.status == .ok)
            #expect(answered.result == "http_response")
            #expect(answered.object["status"] == .integer(200))
            #expect(answered.status200Body?["access_token"]?.stringValue?.isEmpty == false)

            let second = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.notes"))
            #expect(second.result == "http_response", "\(second.text)")
            #expect(second.status200Body?["access_token"] != answered.status200Body?["access_token"])
        }
    }

    @Test func theAnswerIsTheObjectThatSsokitAuthorizePrints() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let answer = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail", operation: "refresh"))
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/json")
            // No session yet: a failure result, still a 200, in the contract's shape.
            let expected = AuthorizationResult.failure(
                AuthorizationFailure(.failed, .loginRequired, "")
            ).jsonObject.keys.sorted()
            #expect(answer.object.keys.sorted() == expected)
            #expect(answer.result == "failure")
            #expect(answer.object["error"]?.objectValue?["reason"] == .string("login_required"))
            let direct = await fixture.harness.adapter.authorize(
                fixture.harness.operation(.refresh, app: "com.example.mail"))
            #expect(answer.text == direct.jsonText)
        }
    }

    @Test func anAppOutsideTheCallersListIsForbiddenAndGetsNoToken() async throws {
        let fixture = try AppAPIFixture()
        await fixture.harness.login("com.example.other")
        try await fixture.application.test(.router) { client in
            let answer = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.other", operation: "refresh"))
            #expect(answer.status == .forbidden)
            #expect(answer.error == "app_not_permitted")
            #expect(answer.object.keys.sorted() == ["error", "message"])
            #expect(!answer.text.contains("token"))
            // The same request from the caller the registry lists is answered.
            let allowed = try await client.post(
                "/v1/authorize", uid: 1001, body: authorizeBody(app: "com.example.other", operation: "refresh"))
            #expect(allowed.result == "http_response")
            // An uid the registry does not name acts as no app.
            let stranger = try await client.post(
                "/v1/authorize", uid: 4242, body: authorizeBody(app: "com.example.other", operation: "refresh"))
            #expect(stranger.status == .forbidden)
            #expect(stranger.error == "app_not_permitted")
        }
    }

    @Test func bundleIdentifiersAreComparedIgnoringCase() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let answer = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "COM.Example.Mail"))
            #expect(answer.result == "needs_interaction")
        }
    }

    @Test func anUnidentifiedConnectionIsForbidden() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            for uri in ["/v1/authorize", "/v1/interactions/AAAAAAAAAAAAAAAAAAAAAA"] {
                let answer = try await client.post(uri, uid: nil, body: authorizeBody(app: "com.example.mail"))
                #expect(answer.status == .forbidden)
                #expect(answer.error == "caller_not_identified")
            }
        }
    }

    @Test(arguments: ["configurationRemoved", "ASAuthorizationProviderAuthorizationOperationConfigurationRemoved"])
    func configurationRemovedIsTheSystemsNotAnApps(operation: String) async throws {
        let fixture = try AppAPIFixture()
        await fixture.harness.login("com.example.mail")
        try await fixture.application.test(.router) { client in
            let answer = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail", operation: operation))
            #expect(answer.status == .forbidden)
            #expect(answer.error == "operation_not_permitted")
        }
        // Nothing was removed.
        #expect(try await !fixture.harness.cache.entries(application: "com.example.mail").entries.isEmpty)
    }

    @Test func theProxyAutoConfigIsServedOnlyWhenAProxyRuns() async throws {
        try await AppAPIFixture().application.test(.router) { client in
            let answer = try await client.get("/proxy.pac")
            #expect(answer.status == .notFound)
            #expect(answer.error == "proxy_not_running")
        }
    }
}
