import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import SSOKitStore
import SSOKitTokenCache
import Testing

@testable import SSOKitExtension

/// Findings of the outside review of the adapter, each held by a test that failed before its fix.
@Suite struct ReviewFindingsTests {
    @Test func theBlockAndAllowListsIgnoreTheCaseOfBundleIdentifiers() {
        let blocking = ApplicationAccessPolicy(blocked: ["com.example.blocked"])
        #expect(!blocking.permits("com.example.Blocked"))
        #expect(!blocking.permits("COM.EXAMPLE.BLOCKED"))
        #expect(blocking.permits("com.example.mail"))
        let allowing = ApplicationAccessPolicy(allowed: ["com.Example.Mail"], allowedPrefixes: ["com.Corp."])
        #expect(allowing.permits("com.example.mail"))
        #expect(allowing.permits("com.corp.notes"))
        #expect(!allowing.permits("com.corpx.notes"))
    }

    @Test func anOpenIDProvidersOwnErrorTextNeverReachesTheApp() {
        // A provider may put what it received (the code, the verifier, a client secret) in error_description.
        let failure = AuthorizationFailure(
            OIDCError(.invalidGrant, "invalid_grant: code=SECRETCODE123&code_verifier=VERIFIER456"))
        #expect(failure.reason.name == "invalid_grant")
        #expect(!failure.message.contains("SECRETCODE123") && !failure.message.contains("VERIFIER456"))
    }

    @Test func aSAMLResponseValueIsExemptFromTheCapButNotUnbounded() {
        var fields = HTTPFields()
        fields[.cacheControl] = "no-store"
        let body = [UInt8](repeating: 0x41, count: 300 * 1024)
        let huge = CompactHTTPResponse(status: 200, headerFields: fields, body: body, exemptBytes: body.count - 100)
        #expect(
            ResponseCompaction.check(.httpResponse(huge), limits: ExtensionLimits()).failure?.reason
                == .responseTooLarge)
        var roomy = ExtensionLimits()
        roomy.maximumSAMLResponseBytes = 512 * 1024
        #expect(ResponseCompaction.check(.httpResponse(huge), limits: roomy).failure == nil)
    }

    @Test func anInteractionBuiltFromAHugeLoginPageIsNotPassedOn() {
        let expires = Date(timeIntervalSince1970: 1_767_225_600)
        let huge = Interaction(
            id: "i1",
            kind: .credentials(fields: [CredentialField(name: String(repeating: "u", count: 9000), isSecret: false)]),
            expiresAt: expires)
        #expect(
            ResponseCompaction.check(.needsInteraction(huge), limits: ExtensionLimits()).failure?.reason
                == .responseTooLarge)
        let usual = Interaction(
            id: "i2",
            kind: .credentials(fields: [
                CredentialField(name: "username", isSecret: false), CredentialField(name: "password", isSecret: true),
            ]), expiresAt: expires)
        #expect(ResponseCompaction.check(.needsInteraction(usual), limits: ExtensionLimits()).failure == nil)
        let longURL = URL(string: "https://idp.test/authorize?x=" + String(repeating: "a", count: 9000))!
        let browser = Interaction(id: "i3", kind: .browser(url: longURL), expiresAt: expires)
        #expect(
            ResponseCompaction.check(.needsInteraction(browser), limits: ExtensionLimits()).failure?.reason
                == .responseTooLarge)
    }

    @Test func anInterceptedAuthorizationAnswerGoesOnlyToTheWebAppsRedirectURI() {
        let uri = "https://app.example.com/cb"
        #expect(RedirectTarget.location("https://app.example.com/cb?code=c&state=s", isUnder: uri))
        #expect(RedirectTarget.location("https://app.example.com/cb#code=c", isUnder: uri))
        #expect(RedirectTarget.location(uri, isUnder: uri))
        #expect(!RedirectTarget.location("https://app.example.com/cbx?code=c", isUnder: uri))
        #expect(!RedirectTarget.location("https://app.example.com/cb.evil.example/?code=c", isUnder: uri))
        #expect(!RedirectTarget.location("https://evil.example/?code=c", isUnder: uri))
        #expect(
            RedirectTarget.location("https://app.example.com/cb?x=1&code=c", isUnder: "https://app.example.com/cb?x=1"))
        #expect(RedirectTarget.location("com.example.app:/callback?code=c", isUnder: "com.example.app:/callback"))
        for refused in ["javascript:alert(1)//", "data:text/html,x", "JavaScript:alert(1)", "file:///etc/passwd", "cb"]
        {
            #expect(!RedirectTarget.isAcceptableRedirectURI(refused), "\(refused)")
            #expect(!RedirectTarget.location(refused + "?code=c", isUnder: refused), "\(refused)")
        }
    }

    @Test func anAuthorizationRequestWithAScriptRedirectURIIsNotCompleted() async throws {
        let harness = try AdapterHarness(payloads: [AdapterHarness.oidcPayload()])
        await harness.login("com.example.mail")
        let url =
            "https://idp.test/authorize?response_type=code&client_id=web&state=s"
            + "&redirect_uri=javascript%3Aalert(document.cookie)%2F%2F&code_challenge=x&code_challenge_method=S256"
        let result = await harness.adapter.authorize(
            AuthorizationRequest(url: URL(string: url), callerBundleIdentifier: "com.apple.Safari"))
        #expect(result.failure?.reason == .invalidRequest, "\(result)")
        let missing = await harness.adapter.authorize(
            AuthorizationRequest(
                url: URL(string: "https://idp.test/authorize?response_type=code&client_id=web&state=s"),
                callerBundleIdentifier: "com.apple.Safari"))
        #expect(missing.failure?.reason == .invalidRequest, "\(missing)")
    }

    @Test func theIdPSessionsCookiesGoOutAsOneCookieLine() async throws {
        let harness = try AdapterHarness(payloads: [AdapterHarness.oidcPayload()])
        await harness.login("com.example.mail")
        let before = harness.idp.transport.requests.count
        // A second app's login rides on the session: its request to the IdP carries the cookies, on one line
        // (RFC 6265 §5.4), not one field per cookie.
        #expect(await harness.login("com.example.notes").response?.status == 200)
        let withCookies = harness.idp.transport.requests.dropFirst(before).filter {
            $0.request.headerFields.contains { $0.name == .cookie }
        }
        #expect(!withCookies.isEmpty)
        for recorded in withCookies {
            let lines = recorded.request.headerFields.filter { $0.name == .cookie }
            #expect(lines.count == 1, "\(lines)")
        }
    }

    @Test func aWalkUnderWayDuringALogoutDoesNotBringTheSessionBack() async throws {
        let clock = AdjustableClock()
        let cache = TokenCache(store: InMemoryTokenCacheStore(), key: .generate(), clock: clock)
        let sessions = IdPSessionStore(cache: cache, clock: clock, lifetime: 3600)
        let cookie = IdPSessionCookie(
            name: "idp_session", value: "v", domain: "idp.test", hostOnly: true, path: "/", expiresAt: nil,
            secure: true, httpOnly: true)
        await sessions.save(CookieJar(cookies: [cookie]), for: "https://idp.test:443")
        clock.advance(1)
        let inFlight = await sessions.jar(for: "https://idp.test:443")  // a request starts its walk
        #expect(!inFlight.isEmpty)
        clock.advance(1)
        #expect(try await sessions.end("https://idp.test:443"))  // logout meanwhile
        clock.advance(1)
        await sessions.save(inFlight, for: "https://idp.test:443")  // the walk ends and saves what it holds
        #expect(await sessions.jar(for: "https://idp.test:443").isEmpty)
        #expect(try await !sessions.end("https://idp.test:443"))
        // A login after the logout keeps its session as before.
        clock.advance(1)
        var fresh = await sessions.jar(for: "https://idp.test:443")
        fresh = CookieJar(cookies: [cookie], loadedAt: fresh.loadedAt)
        await sessions.save(fresh, for: "https://idp.test:443")
        #expect(await !sessions.jar(for: "https://idp.test:443").isEmpty)
    }

    @Test func onlyBrowsersAndAllowListedAppsGetBrowserSSO() async throws {
        let url = URL(
            string: "https://idp.test/authorize?response_type=code&client_id=web&state=s"
                + "&redirect_uri=https%3A%2F%2Fapp.test%2Fcb&code_challenge=x&code_challenge_method=S256")
        let open = try AdapterHarness(payloads: [AdapterHarness.oidcPayload()])
        await open.login("com.example.mail")
        // A native app may log in, but not mint codes for a web client through the user's IdP session.
        #expect(
            await open.adapter.authorize(AuthorizationRequest(url: url, callerBundleIdentifier: "com.example.mail"))
                == .doNotHandle)
        let browser = await open.adapter.authorize(
            AuthorizationRequest(url: url, callerBundleIdentifier: "com.apple.Safari"))
        #expect(browser != .doNotHandle, "\(browser)")
        let listed = try AdapterHarness(
            payloads: [AdapterHarness.oidcPayload(extra: #", "AppAllowList": ["com.example.mail"]"#)])
        let allowed = await listed.adapter.authorize(
            AuthorizationRequest(url: url, callerBundleIdentifier: "com.example.mail"))
        #expect(allowed != .doNotHandle, "\(allowed)")
        #expect(
            await listed.adapter.authorize(AuthorizationRequest(url: url, callerBundleIdentifier: "com.example.other"))
                == .doNotHandle)
    }
}
