import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTokenCache
import Testing

/// Pending interactions: resumed once, before they expire, by any instance sharing the store; the IdP session
/// they create is used by later requests, and a dead one brings the interaction back.
@Suite struct InteractionTests {
    @Test func anInteractionIsResumedAtMostOnce() async throws {
        let harness = try standardHarness()
        let interaction = try #require(
            await harness.adapter.authorize(harness.operation(.login, app: "a.b")).interaction)
        #expect(interaction.id.utf8.count >= 22)
        #expect(
            await harness.adapter.resume(interaction: interaction.id, with: credentials(harness)).response?.status
                == 200)
        let again = await harness.adapter.resume(interaction: interaction.id, with: credentials(harness))
        #expect(again.failure == AuthorizationFailure(.failed, .interactionExpired, ""))
    }

    @Test func anInteractionExpires() async throws {
        let harness = try standardHarness(limits: ExtensionLimits(interactionLifetime: 60))
        let interaction = try #require(
            await harness.adapter.authorize(harness.operation(.login, app: "a.b")).interaction)
        #expect(interaction.expiresAt == harness.clock.now.addingTimeInterval(60))
        harness.clock.advance(61)
        let late = await harness.adapter.resume(interaction: interaction.id, with: credentials(harness))
        #expect(late.failure?.reason == .interactionExpired)
        #expect(harness.idp.requestCounts["/login"] == nil)
    }

    @Test(arguments: ["", "x", "not base64url!!!!!!!!!!!", String(repeating: "A", count: 200)])
    func unknownOrMalformedIDsExpire(id: String) async throws {
        let harness = try standardHarness()
        #expect(await harness.adapter.resume(interaction: id, with: .cancel).failure?.reason == .interactionExpired)
    }

    @Test func anotherInstanceOnTheSameStoreResumes() async throws {
        let harness = try standardHarness()
        let interaction = try #require(
            await harness.adapter.authorize(harness.operation(.login, app: "a.b")).interaction)
        let sibling = try harness.sibling()
        let result = await sibling.adapter.resume(interaction: interaction.id, with: credentials(harness))
        #expect(result.response?.status == 200, "\(result)")
        // The first instance sees the tokens the second stored, without a new login.
        let refresh = await harness.adapter.authorize(harness.operation(.refresh, app: "a.b", ui: false))
        #expect(refresh.accessToken == result.accessToken)
    }

    @Test func cancelEndsTheInteraction() async throws {
        let harness = try standardHarness()
        let interaction = try #require(
            await harness.adapter.authorize(harness.operation(.login, app: "a.b")).interaction)
        #expect(
            await harness.adapter.resume(interaction: interaction.id, with: .cancel).failure
                == AuthorizationFailure(.canceled, .userCanceled, ""))
        #expect(
            await harness.adapter.resume(interaction: interaction.id, with: credentials(harness)).failure?.reason
                == .interactionExpired)
    }

    @Test func wrongCredentialsFailAndLeaveNoSession() async throws {
        let harness = try standardHarness()
        let interaction = try #require(
            await harness.adapter.authorize(harness.operation(.login, app: "a.b")).interaction)
        let result = await harness.adapter.resume(
            interaction: interaction.id, with: .credentials(["username": "alice", "password": "guess"]))
        #expect(result.failure == AuthorizationFailure(.failed, .invalidCredentials, ""))
        #expect(result.failure?.message.contains("guess") == false)
        #expect(
            await harness.adapter.authorize(harness.operation(.refresh, app: "a.b")).failure?.reason == .loginRequired)
    }

    @Test func anAnswerOfTheWrongKindIsRefused() async throws {
        let harness = try standardHarness()
        let interaction = try #require(
            await harness.adapter.authorize(harness.operation(.login, app: "a.b")).interaction)
        let result = await harness.adapter.resume(
            interaction: interaction.id, with: .callbackURL(URL(string: AdapterHarness.redirectURI + "?code=x")!))
        #expect(result.failure?.reason == .invalidInteractionResponse)
    }

    @Test func theIdPSessionIsSealedAndEveryCookieStaysOutOfTheStoreInClear() async throws {
        let harness = try standardHarness()
        await harness.login("a.b")
        let rows = try await harness.store.rows(application: "#idp-session")
        #expect(rows.count == 1)
        let session = try #require(
            try await harness.cache.tokens(
                for: TokenCacheKey(application: "#idp-session", issuer: "https://idp.test:443", clientID: ""))?
                .idpSession)
        #expect(session.cookies.map(\.name).sorted() == ["idp_session", "login_csrf"])
        for cookie in session.cookies {
            #expect(!rows[0].sealed.contains(run: Array(cookie.value.utf8)))
        }
        #expect(!"\(session)".contains(session.cookies[0].value))
    }

    @Test func anExpiredOrRevokedIdPSessionBringsTheInteractionBackNeverAWrongAnswer() async throws {
        let harness = try standardHarness()
        await harness.login("com.example.mail")
        // Revoked at the IdP while the cookie is still held: the IdP shows its form again.
        harness.idp.endSessions()
        let revoked = await harness.adapter.authorize(harness.operation(.login, app: "com.example.calendar"))
        #expect(revoked.interaction != nil, "\(revoked)")
        let silent = await harness.adapter.authorize(harness.operation(.refresh, app: "com.example.calendar"))
        #expect(silent.failure == AuthorizationFailure(.notInteractive, .loginRequired, ""))
        // Expired: the cookie's Max-Age passes, so the jar sends nothing.
        let resumed = await harness.adapter.resume(
            interaction: try #require(revoked.interaction).id, with: credentials(harness))
        #expect(resumed.response?.status == 200)
        harness.clock.advance(3601)
        let expired = await harness.adapter.authorize(harness.operation(.login, app: "com.example.notes"))
        #expect(expired.interaction != nil, "\(expired)")
    }

    @Test func aBrowserInteractionCarriesPKCEAndIsResumedWithTheCallback() async throws {
        let harness = try standardHarness(extra: #", "login_interaction": "browser""#)
        let result = await harness.adapter.authorize(harness.operation(.login, app: "a.b"))
        let interaction = try #require(result.interaction)
        guard case .browser(let url) = interaction.kind else {
            Issue.record("not a browser interaction")
            return
        }
        let query = Dictionary(
            (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
                ($0.name, $0.value ?? "")
            },
            uniquingKeysWith: { first, _ in first })
        #expect(url.absoluteString.hasPrefix("https://idp.test/authorize?"))
        #expect(query["code_challenge_method"] == "S256" && query["code_challenge"]?.count == 43)
        #expect(query["redirect_uri"] == AdapterHarness.redirectURI && query["nonce"] != nil)
        // The user's browser logs in; the host resumes with the URL it was sent to.
        let callback = try await userBrowser(harness, url: url)
        let tampered = URL(string: callback.absoluteString.replacingOccurrences(of: "state=", with: "state=x"))!
        let second = try #require(await harness.adapter.authorize(harness.operation(.login, app: "a.b")).interaction)
        #expect(
            await harness.adapter.resume(interaction: second.id, with: .callbackURL(tampered)).failure?.reason.name
                == "state_mismatch")
        let resumed = await harness.adapter.resume(interaction: interaction.id, with: .callbackURL(callback))
        #expect(resumed.response?.status == 200, "\(resumed)")
    }

    /// What a user's browser does with `url`: logs in on the IdP's form and stops at the redirect URI.
    func userBrowser(_ harness: AdapterHarness, url: URL) async throws -> URL {
        let page = try await harness.idp.transport.send(
            HTTPRequestFactory.get(url), body: nil)
        let cookie = try #require(page.response.headerFields[.setCookie]?.split(separator: ";").first)
        let html = String(decoding: page.body, as: UTF8.self)
        let csrf = try #require(html.range(of: #"name="csrf" value=""#).map { html[$0.upperBound...].prefix(22) })
        let action = "https://idp.test/login?" + (url.query ?? "")
        var post = HTTPRequestFactory.post(URL(string: action)!)
        post.headerFields[.cookie] = String(cookie)
        post.headerFields[.contentType] = "application/x-www-form-urlencoded"
        let form = FormURLEncoding.encode([("csrf", String(csrf)), ("username", "alice"), ("password", "wonderland")])
        let login = try await harness.idp.transport.send(post, body: Array(form.utf8))
        let session = try #require(login.response.headerFields[.setCookie]?.split(separator: ";").first)
        var again = HTTPRequestFactory.get(URL(string: try #require(login.response.headerFields[.location]))!)
        again.headerFields[.cookie] = String(session)
        let redirect = try await harness.idp.transport.send(again, body: nil)
        return URL(string: try #require(redirect.response.headerFields[.location]))!
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs as a contiguous run.
    func contains(run needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
