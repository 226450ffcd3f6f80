import Foundation
import HTTPTypes
import HummingbirdTesting
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitTesting
import Testing

/// Only the caller that started an interaction resumes it; anyone else learns nothing about it.
@Suite struct InteractionBindingTests {
    @Test func anotherCallerCannotResumeAndTheOwnerStillCan() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let started = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
            let id = try #require(started.interactionID)

            let intruder = try await client.post("/v1/interactions/\(id)", uid: 1001, body: fixture.credentialsBody)
            #expect(intruder.status == .notFound)
            #expect(intruder.error == "interaction_not_found")
            let unknown = try await client.post(
                "/v1/interactions/AAAAAAAAAAAAAAAAAAAAAA", uid: 1001, body: fixture.credentialsBody)
            // The same answer as for an ID that does not exist: nothing reveals that it does.
            #expect(unknown.text == intruder.text)

            let owner = try await client.post("/v1/interactions/\(id)", uid: 1000, body: fixture.credentialsBody)
            #expect(owner.result == "http_response", "\(owner.text)")
            // Used once.
            let again = try await client.post("/v1/interactions/\(id)", uid: 1000, body: fixture.credentialsBody)
            #expect(again.status == .notFound)
        }
    }

    @Test func anInteractionStartedOutsideTheAPIIsNotResumableThroughIt() async throws {
        let fixture = try AppAPIFixture()
        let result = await fixture.harness.adapter.authorize(
            fixture.harness.operation(.login, app: "com.example.mail"))
        guard case .needsInteraction(let interaction) = result else {
            Issue.record("expected an interaction, got \(result.kind)")
            return
        }
        try await fixture.application.test(.router) { client in
            let answer = try await client.post(
                "/v1/interactions/\(interaction.id)", uid: 1000, body: fixture.credentialsBody)
            #expect(answer.status == .notFound)
        }
    }

    @Test(arguments: ["short", "not-base64url-!!!!!!!!!!!!", String(repeating: "A", count: 80)])
    func malformedIDsAreNotFound(id: String) async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let answer = try await client.post("/v1/interactions/\(id)", uid: 1000, body: fixture.credentialsBody)
            #expect(answer.status == .notFound)
            #expect(answer.error == "interaction_not_found")
        }
    }

    @Test func aMalformedAnswerDoesNotUseTheInteractionUp() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let started = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
            let id = try #require(started.interactionID)
            let malformed = try await client.post("/v1/interactions/\(id)", uid: 1000, body: "{\"username\": 7}")
            #expect(malformed.status == .badRequest)
            #expect(malformed.error == "invalid_field")
            let owner = try await client.post("/v1/interactions/\(id)", uid: 1000, body: fixture.credentialsBody)
            #expect(owner.result == "http_response")
        }
    }

    @Test func wrongCredentialsAreAFailureWithoutTheSecret() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let started = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
            let id = try #require(started.interactionID)
            let body = JSONValue.object([
                "username": .string(fixture.harness.idp.username), "password": .string("guess-9f2c"),
            ]).jsonText
            let answer = try await client.post("/v1/interactions/\(id)", uid: 1000, body: body)
            #expect(answer.status == .ok)
            #expect(answer.object["error"]?.objectValue?["reason"] == .string("invalid_credentials"))
            #expect(!answer.text.contains("guess-9f2c"))
        }
    }

    @Test func cancelEndsTheInteraction() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            let started = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
            let id = try #require(started.interactionID)
            let answer = try await client.post("/v1/interactions/\(id)", uid: 1000, body: "{\"cancel\": true}")
            #expect(answer.object["error"]?.objectValue?["code"] == .string("canceled"))
        }
    }
}

/// A caller cannot pile up pending interactions through the API: past its cap, a login that would need one is the
/// failure `too_many_interactions`; another caller is not affected.
@Suite struct InteractionCapTests {
    @Test func aCallerPastItsCapGetsTooManyInteractions() async throws {
        let fixture = try AppAPIFixture()
        try await fixture.application.test(.router) { client in
            for _ in 0..<InteractionOwners(cache: fixture.harness.cache).maximumPendingPerCaller {
                let started = try await client.post(
                    "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
                #expect(started.interactionID != nil, "\(started.text)")
            }
            let refused = try await client.post(
                "/v1/authorize", uid: 1000, body: authorizeBody(app: "com.example.mail"))
            #expect(refused.status == .ok)
            #expect(refused.result == "failure")
            #expect(refused.object["error"]?.objectValue?["reason"] == .string("too_many_interactions"))
            let other = try await client.post(
                "/v1/authorize", uid: 1001, body: authorizeBody(app: "com.example.other"))
            #expect(other.status == .ok)
            #expect(other.result != nil)
            #expect(other.object["error"]?.objectValue?["reason"] != .string("too_many_interactions"))
        }
    }
}
