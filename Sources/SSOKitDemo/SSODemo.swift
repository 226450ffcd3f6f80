import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitHummingbird
import SSOKitOIDC

/// The demo of Apple's Extensible Enterprise SSO, replayed on Linux against ``DemoServers``: a browser signs in to
/// a web app through the intercepting proxy (the extension asks for credentials once), native apps then get tokens
/// with no question (single sign-on) while a blocked app is not handled, the same over SAML with a compact
/// auto-post form, and a logout that ends the apps' sessions and the IdP session.
public struct SSODemo: Sendable {
    private let servers: DemoServers

    /// A demo over running servers.
    public init(servers: DemoServers) { self.servers = servers }

    /// Runs every step in order, handing each to `report` as it ends; returns whether all succeeded.
    public func run(report: @Sendable (DemoStep) -> Void) async -> Bool {
        let steps: [(String, @Sendable () async throws -> StepOutcome)] = [
            ("browser_oidc_login", browserOIDCLogin),
            ("native_app_burger", { try await nativeImage(app: "com.example.burger", image: "burger") }),
            ("native_app_tacos", { try await nativeImage(app: "com.example.tacos", image: "tacos") }),
            ("blocked_app", blockedApp),
            ("browser_saml_login", browserSAMLLogin),
            ("logout", logout),
        ]
        var allPassed = true
        for (name, body) in steps {
            let clock = ContinuousClock()
            let start = clock.now
            let outcome: StepOutcome
            do {
                outcome = try await body()
            } catch {
                outcome = StepOutcome(ok: false, bytes: nil, detail: "stopped: \(error)")
            }
            let elapsed = clock.now - start
            let milliseconds = Int(
                elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            report(
                DemoStep(
                    name: name, ok: outcome.ok, milliseconds: milliseconds, responseBytes: outcome.bytes,
                    detail: outcome.detail))
            allPassed = allPassed && outcome.ok
        }
        return allPassed
    }

    private struct StepOutcome: Sendable {
        var ok: Bool
        var bytes: Int?
        var detail: String
    }

    // MARK: Steps

    /// 1. The browser opens the OIDC web app; its redirect to the IdP goes through the proxy to the extension,
    /// which asks for credentials once and answers with a compact 302 back to the app.
    private func browserOIDCLogin() async throws -> StepOutcome {
        let before = servers.exchangeLog.count
        let page = try await servers.browser.visit(servers.webAppsURL + "/oidc/")
        let exchanges = servers.exchangeLog.exchanges(since: before)
        guard let answer = exchanges.last(where: { $0.responseBytes != nil }) else {
            return StepOutcome(
                ok: false, bytes: nil, detail: "the proxy intercepted nothing (\(page.status) \(page.url))")
        }
        let signedIn = page.status == 200 && page.text.contains("signed in as Demo User")
        let asked = exchanges.contains { $0.askedForCredentials }
        return StepOutcome(
            ok: signedIn && asked,
            bytes: answer.responseBytes,
            detail: signedIn
                ? "the login redirect was intercepted, the extension asked for credentials (the demo supplied "
                    + "\(servers.username)'s), a compact 302 came back: the page says \"Demo User\""
                : "the web app did not sign the user in (\(page.status) \(page.url))")
    }

    /// 2. A native app asks for tokens with the `refresh` operation (no UI allowed) and fetches its picture.
    private func nativeImage(app: String, image: String) async throws -> StepOutcome {
        let result = await servers.adapter.authorize(
            AuthorizationRequest(
                url: URL(string: servers.identityProviderURL), callerBundleIdentifier: app,
                isUserInterfaceEnabled: false, operation: .refresh))
        guard case .httpResponse(let response) = result, response.status == 200,
            let tokens = try? JSONParser().parse(response.body), let accessToken = tokens["access_token"]?.stringValue
        else {
            return StepOutcome(ok: false, bytes: nil, detail: "\(app) got \(result.kind) instead of tokens")
        }
        var request = HTTPRequest(
            method: .get, scheme: "http", authority: authority(servers.webAppsURL), path: "/images/\(image)")
        request.headerFields[.authorization] = "Bearer \(accessToken)"
        let picture = try await servers.transport.send(request, body: nil)
        let ok = picture.response.status == .ok && String(decoding: picture.body, as: UTF8.self).hasPrefix("<svg")
        return StepOutcome(
            ok: ok, bytes: response.countedBytes,
            detail: ok
                ? "\(app) got tokens with no question (single sign-on) and fetched \"\(image)\" (\(picture.body.count) B)"
                : "\(app)'s token did not open \"\(image)\" (\(picture.response.status.code))")
    }

    /// 2b. An app on the profile's block list is not handled: the OS would let its request go on untouched.
    private func blockedApp() async throws -> StepOutcome {
        let result = await servers.adapter.authorize(
            AuthorizationRequest(
                url: URL(string: servers.identityProviderURL), callerBundleIdentifier: DemoServers.blockedApp,
                isUserInterfaceEnabled: false, operation: .refresh))
        let ok = result.kind == "do_not_handle"
        return StepOutcome(
            ok: ok, bytes: nil,
            detail: ok
                ? "\(DemoServers.blockedApp) is on the block list: doNotHandle, no token"
                : "\(DemoServers.blockedApp) got \(result.kind)")
    }

    /// 3. The browser opens the SAML web app; the extension answers the AuthnRequest with a compact auto-post form
    /// whose Response it verified, and the app verifies it again.
    private func browserSAMLLogin() async throws -> StepOutcome {
        let before = servers.exchangeLog.count
        let page = try await servers.browser.visit(servers.webAppsURL + "/saml/")
        let exchanges = servers.exchangeLog.exchanges(since: before)
        let answer = exchanges.last { $0.responseBytes != nil }
        let signedIn = page.status == 200 && page.text.contains("signed in as Demo User")
        return StepOutcome(
            ok: signedIn && answer != nil,
            bytes: answer?.responseBytes,
            detail: signedIn
                ? "the AuthnRequest was intercepted and answered with a compact auto-post form"
                    + (exchanges.contains { $0.askedForCredentials } ? " (after asking for credentials)" : "")
                    + ": the SAML app verified the assertion and says \"Demo User\""
                : "the SAML web app did not sign the user in (\(page.status) \(page.url))")
    }

    /// 4. Logout: each app's session ends (and the IdP session with the first), so no app gets tokens silently
    /// any more.
    private func logout() async throws -> StepOutcome {
        var bytes = 0
        for (index, app) in ["com.example.burger", "com.example.tacos"].enumerated() {
            let result = await servers.adapter.authorize(
                AuthorizationRequest(
                    url: URL(string: servers.identityProviderURL), callerBundleIdentifier: app, operation: .logout,
                    authorizationOptions: index == 0 ? ["end_session": "true"] : [:]))
            guard case .httpResponse(let response) = result, response.status == 200 else {
                return StepOutcome(ok: false, bytes: nil, detail: "logout for \(app) gave \(result.kind)")
            }
            bytes = max(bytes, response.countedBytes)
        }
        for app in ["com.example.burger", "com.example.tacos", "com.example.notes"] {
            let result = await servers.adapter.authorize(
                AuthorizationRequest(
                    url: URL(string: servers.identityProviderURL), callerBundleIdentifier: app,
                    isUserInterfaceEnabled: false, operation: .refresh))
            guard let failure = result.failure, failure.reason == .loginRequired || failure.code == .notInteractive
            else {
                return StepOutcome(
                    ok: false, bytes: bytes, detail: "after logout, \(app)'s silent refresh gave \(result.kind)")
            }
        }
        return StepOutcome(
            ok: true, bytes: bytes,
            detail: "both apps logged out (tokens revoked, IdP session ended): a silent refresh now needs a login")
    }

    private func authority(_ url: String) -> String {
        String(url.dropFirst("http://".count))
    }
}
