import Crypto
import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache
import Synchronization
import Testing

/// Credential challenges, logout, configuration removal, rights and the compact-response check.
@Suite struct ChallengeAndSessionTests {
    func challenge(_ scheme: String, app: String = "com.example.mail", ui: Bool = false)
        -> SSOKitExtension.AuthorizationRequest
    {
        var fields = HTTPFields()
        fields[.wwwAuthenticate] = scheme
        return SSOKitExtension.AuthorizationRequest(
            url: URL(string: "https://eu.api.test/v1/items"), httpHeaders: fields, callerBundleIdentifier: app,
            isUserInterfaceEnabled: ui)
    }

    @Test func aBearerChallengeGetsTheAppsAccessToken() async throws {
        let harness = try standardHarness()
        let login = await harness.login("com.example.mail")
        let result = await harness.adapter.authorize(challenge(#"Bearer realm="api""#))
        #expect(result.headers?[.authorization] == "Bearer " + (login.accessToken ?? "-"))
        #expect(result.headers?.count == 1)
    }

    @Test func invalidTokenForcesARefresh() async throws {
        let harness = try standardHarness()
        let login = await harness.login("com.example.mail")
        let result = await harness.adapter.authorize(challenge(#"Bearer error="invalid_token""#))
        let header = try #require(result.headers?[.authorization])
        #expect(header.hasPrefix("Bearer at-") && header != "Bearer " + (login.accessToken ?? ""))
    }

    @Test func otherSchemesAreNotHandled() async throws {
        let harness = try standardHarness()
        await harness.login("com.example.mail")
        #expect(await harness.adapter.authorize(challenge("Negotiate")) == .doNotHandle)
        #expect(await harness.adapter.authorize(challenge(#"Basic realm="x""#)) == .doNotHandle)
        var plain = challenge("Bearer")
        plain.httpHeaders = HTTPFields()
        #expect(await harness.adapter.authorize(plain) == .doNotHandle)
    }

    @Test func aChallengeWithoutASessionAsksOrFails() async throws {
        let harness = try standardHarness()
        #expect(await harness.adapter.authorize(challenge("Bearer")).failure?.reason == .loginRequired)
        let interaction = try #require(await harness.adapter.authorize(challenge("Bearer", ui: true)).interaction)
        let result = await harness.adapter.resume(interaction: interaction.id, with: credentials(harness))
        #expect(result.headers?[.authorization]?.hasPrefix("Bearer at-") == true, "\(result)")
    }

    @Test func logoutRemovesTheSessionAndRevokesAtTheProvider() async throws {
        let harness = try standardHarness()
        await harness.login("com.example.mail")
        let result = await harness.adapter.authorize(harness.operation(.logout, app: "com.example.mail"))
        #expect(result.bodyObject == ["logged_out": .bool(true), "revoked": .bool(true), "revocation_error": .null])
        #expect(harness.idp.requestCounts["/revoke"] == 2)
        // The IdP session stays: the app logs in again without the user (SSO) ...
        #expect(
            await harness.adapter.authorize(harness.operation(.refresh, app: "com.example.mail")).response?.status
                == 200)
        // ... unless the logout ends it too.
        let ended = await harness.adapter.authorize(
            harness.operation(.logout, app: "com.example.mail", options: ["end_session": "true"]))
        #expect(ended.bodyObject?["idp_session_ended"] == .bool(true))
        #expect(
            await harness.adapter.authorize(harness.operation(.refresh, app: "com.example.mail")).failure?.reason
                == .loginRequired)
        let nothing = await harness.adapter.authorize(harness.operation(.logout, app: "com.example.mail"))
        #expect(nothing.bodyObject?["logged_out"] == .bool(false))
    }

    @Test func configurationRemovedDropsEveryAppsEntryAndTheIdPSession() async throws {
        let harness = try standardHarness()
        for app in ["com.example.a", "com.example.b", "com.example.c"] { await harness.login(app) }
        let result = await harness.adapter.authorize(harness.operation(.configurationRemoved, app: "com.example.a"))
        #expect(result.bodyObject == ["removed_entries": .integer(3), "idp_session_ended": .bool(true)])
        for app in ["com.example.a", "com.example.b", "com.example.c"] {
            #expect(try await harness.cache.entries(application: app).entries.isEmpty)
        }
        #expect(
            await harness.adapter.authorize(harness.operation(.refresh, app: "com.example.b")).failure?.reason
                == .loginRequired)
    }

    @Test func aTokenRightMustBeAuthorizedBeforeTokensAreReleased() async throws {
        let extra = #", "token_right": "com.example.tokens""#
        let withoutStore = try standardHarness(extra: extra)
        #expect(
            await withoutStore.login("com.example.mail").failure
                == AuthorizationFailure(.notInteractive, .rightNotAuthorized, ""))

        let refused = try await rightHarness(extra: extra, answer: "wrong guess")
        #expect(
            await refused.harness.login("com.example.mail").failure
                == AuthorizationFailure(.failed, .rightNotAuthorized, ""))
        let silent = await refused.harness.adapter.authorize(
            refused.harness.operation(.refresh, app: "com.example.mail", ui: false))
        #expect(silent.failure == AuthorizationFailure(.notInteractive, .rightNotAuthorized, ""))

        let granted = try await rightHarness(extra: extra, answer: "open sesame")
        #expect(await granted.harness.login("com.example.mail").response?.status == 200)
        let asked = granted.authenticator.count
        let later = await granted.harness.adapter.authorize(
            granted.harness.operation(.refresh, app: "com.example.mail", ui: false))
        #expect(later.response?.status == 200)
        #expect(granted.authenticator.count == asked)
    }

    /// A harness whose payload's `token_right` is persisted with the passphrase "open sesame"; the authenticator
    /// answers `answer`.
    func rightHarness(extra: String, answer: String) async throws -> (
        harness: AdapterHarness, authenticator: CountingAuthenticator
    ) {
        let rights = try RightStore(records: InMemoryTokenCacheStore(), deviceKey: SymmetricKey(size: .bits256))
        let authenticator = CountingAuthenticator(answer: answer)
        let right = try Right(
            requirement: .passphrase(
                try PassphraseRequirement(label: "tokens", passphrase: "open sesame", cost: .minimumForTests)),
            authenticator: authenticator)
        _ = try await rights.persist(right, identifier: "com.example.tokens")
        let harness = try standardHarness(extra: extra) { environment in
            environment.rightStore = rights
            environment.rightAuthenticator = authenticator
        }
        return (harness, authenticator)
    }

    @Test func anAnswerOverTheCapBecomesATypedFailure() async throws {
        let harness = try standardHarness(limits: ExtensionLimits(maximumResponseBytes: 400))
        let result = await harness.login("com.example.mail")
        #expect(result.failure == AuthorizationFailure(.invalidResponse, .responseTooLarge, ""))
    }
}

/// Answers every passphrase prompt with one value, and counts them.
final class CountingAuthenticator: RightAuthenticator {
    let answer: String
    private let asked = Mutex(0)
    init(answer: String) { self.answer = answer }
    func passphrase(for request: PassphraseRequest) async -> String? {
        asked.withLock { $0 += 1 }
        return answer
    }
    var count: Int { asked.withLock { $0 } }
}
