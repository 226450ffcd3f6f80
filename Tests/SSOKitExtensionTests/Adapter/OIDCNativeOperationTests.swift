import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitTokenCache
import Testing

/// Native OIDC operations through the adapter against the in-memory IdP's login form and session cookie.
@Suite struct OIDCNativeOperationTests {
    @Test func loginAsksForTheFormsFieldsThenAnswersWithTokens() async throws {
        let harness = try standardHarness()
        let first = await harness.adapter.authorize(harness.operation(.login, app: "com.example.mail"))
        let interaction = try #require(first.interaction)
        #expect(
            interaction.kind
                == .credentials(fields: [
                    CredentialField(name: "username", isSecret: false),
                    CredentialField(name: "password", isSecret: true),
                ]))
        let result = await harness.adapter.resume(interaction: interaction.id, with: credentials(harness))
        let response = try #require(result.response, "\(result)")
        #expect(response.status == 200)
        #expect(response[.cacheControl] == "no-store")
        let body = try #require(result.bodyObject)
        #expect(Set(body.keys) == ["access_token", "id_token", "token_type", "expires_in"])
        #expect(body["token_type"] == .string("Bearer"))
        #expect(body["expires_in"] == .integer(3600))
        let accessToken = try #require(result.accessToken)
        #expect(response[try #require(HTTPField.Name("access_token"))] == accessToken)
        #expect(response[try #require(HTTPField.Name("id_token"))] == body["id_token"]?.stringValue)
        let claims = try IDTokenClaims(previouslyVerified: try #require(body["id_token"]?.stringValue))
        #expect(claims.subject == "alice")
    }

    @Test func anotherAppLogsInSilentlyWithTheIdPSession() async throws {
        let harness = try standardHarness()
        let mail = await harness.login("com.example.mail")
        let calendar = await harness.adapter.authorize(
            harness.operation(.login, app: "com.example.calendar", ui: false))
        #expect(calendar.response?.status == 200, "\(calendar)")
        #expect(calendar.accessToken != nil && calendar.accessToken != mail.accessToken)
        #expect(harness.idp.requestCounts["/login"] == 1)
    }

    @Test func refreshIsSilentFromTheCacheAndWithARefreshGrantWhenExpired() async throws {
        let harness = try standardHarness()
        let login = await harness.login("com.example.mail")
        let cached = await harness.adapter.authorize(harness.operation(.refresh, app: "com.example.mail", ui: false))
        #expect(cached.accessToken == login.accessToken)
        #expect(harness.idp.requestCounts["/token"] == 1)
        harness.clock.advance(3600)
        let refreshed = await harness.adapter.authorize(harness.operation(.refresh, app: "com.example.mail", ui: false))
        #expect(refreshed.response?.status == 200, "\(refreshed)")
        #expect(refreshed.accessToken != login.accessToken)
        #expect(harness.idp.requestCounts["/token"] == 2)
        #expect(refreshed.bodyObject?["id_token"] == login.bodyObject?["id_token"])
    }

    @Test func refreshWithoutAnySessionTellsTheAppToCallLogin() async throws {
        let harness = try standardHarness()
        let result = await harness.adapter.authorize(harness.operation(.refresh, app: "com.example.mail"))
        #expect(result.failure == AuthorizationFailure(.notInteractive, .loginRequired, ""))
        #expect(harness.idp.requestCounts["/login"] == nil)
    }

    @Test func loginWithoutUIFailsNotInteractive() async throws {
        let harness = try standardHarness()
        let result = await harness.adapter.authorize(harness.operation(.login, app: "com.example.mail", ui: false))
        #expect(result.failure == AuthorizationFailure(.notInteractive, .loginRequired, ""))
    }
}
