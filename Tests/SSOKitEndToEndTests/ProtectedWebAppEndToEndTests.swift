import Foundation
import SSOKitCore
import SSOKitTesting
import Testing

/// Examples/ProtectedWebApp against `ssokit dev-idp`, both as processes: its protected page sends a browser to sign
/// in with OpenID Connect and then shows the user's name; a second browser signs in with SAML; a replayed SAML
/// post and a callback in another browser are refused.
@Suite(.serialized)
struct ProtectedWebAppEndToEndTests {
    static let password = "alice-webapp-password"
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("webapp-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"users": [{"username": "alice", "password": "\#(Self.password)", "claims": {"name": "Alice Example"}}]}"#
            .write(to: folder.appendingPathComponent("users.json"), atomically: true, encoding: .utf8)
    }

    @Test func signInWithOpenIDConnectAndWithSAML() async throws {
        let idp = try await DevIdPProcess(arguments: ["--users", folder.appendingPathComponent("users.json").path])
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let transport = AsyncHTTPClientTransport()
        do {
            try await signIn(idp: idp, transport: transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
    }

    private func signIn(idp: DevIdPProcess, transport: AsyncHTTPClientTransport) async throws {
        let app = try await ProtectedWebAppProcess(
            [
                "--oidc-issuer", idp.baseURL, "--oidc-client-id", "ssokit-demo",
                "--saml-metadata-url", idp.baseURL + "/saml/metadata", "--saml-sp-entity-id", "urn:ssokit:demo-sp",
            ], folder: folder)
        defer { app.stop() }

        // OIDC: the protected page redirects to the sign-in, the IdP's form, the callback, the page with the name.
        let oidc = TestWebBrowser(transport: transport)
        let home = try await oidc.get(app.baseURL + "/")
        #expect(home.status == 200 && home.body.contains("/auth/saml/signin?return_to=/profile"))
        let protected = try await oidc.get(app.baseURL + "/profile")
        #expect(protected.status == 302)
        let callback = try await oidc.signInAtDevIdP(
            from: app.baseURL + (protected.location ?? ""), username: "alice", password: Self.password)
        let callbackURL = try #require(callback.location)
        #expect(callbackURL.hasPrefix(app.baseURL + "/callback?"))
        let stranger = TestWebBrowser(transport: transport)
        let refused = try await stranger.get(callbackURL)
        #expect(refused.status == 403 && refused.body.contains("login_state_wrong_browser"))
        let profile = try await oidc.follow(callbackURL)
        #expect(profile.status == 200)
        #expect(profile.body.contains("Signed in as <strong>Alice Example</strong> with OpenID Connect"))

        // SAML: another browser, the IdP's auto-post form, the ACS, the page with the name; the same post again fails.
        let saml = TestWebBrowser(transport: transport)
        let autoPost = try await saml.signInAtDevIdP(
            from: app.baseURL + "/auth/saml/signin?return_to=/profile", username: "alice", password: Self.password)
        let acs = try #require(autoPost.formAction)
        #expect(acs == app.baseURL + "/saml/acs")
        let form = [
            ("SAMLResponse", try #require(autoPost.hiddenInput("SAMLResponse"))),
            ("RelayState", try #require(autoPost.hiddenInput("RelayState"))),
        ]
        let posted = try await saml.post(acs, form: form)
        #expect(posted.status == 303 && posted.location == "/profile")
        let samlProfile = try await saml.follow(app.baseURL + "/profile")
        #expect(samlProfile.body.contains("Signed in as <strong>Alice Example</strong> with SAML"))
        let replay = try await saml.post(acs, form: form)
        #expect(replay.status == 400 && replay.body.contains("login_state_replayed"))

        // Sign-out ends the session.
        let out = try await saml.post(app.baseURL + "/auth/signout", form: [])
        #expect(out.status == 303)
        #expect(try await saml.get(app.baseURL + "/profile").status == 302)
        #expect(!app.stderr.contains(Self.password))
    }
}
