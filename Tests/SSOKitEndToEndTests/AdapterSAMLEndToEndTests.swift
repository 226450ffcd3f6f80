import Foundation
import SSOKitSAML
import Testing

/// `ssokit authorize` against pysaml2 (`peer/saml_idp.py --login-password`), logging in through its username and
/// password form: a native SAML login, the session from the cache, a web app's AuthnRequest answered with a compact
/// verified auto-post form, wrong credentials, and a logout that ends the IdP session.
@Suite(.serialized)
struct AdapterSAMLEndToEndTests {
    func workspace(_ peer: SAMLPeer) throws -> AdapterWorkspace {
        try AdapterWorkspace(payloads: [
            """
            {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "e2e.saml",
             "ExtensionIdentifier": "com.example.ssokit.extension", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
             "URLs": ["\(peer.baseURL)/idp/sso/"],
             "ExtensionData": {"protocol": "saml", "idp_metadata_file": "\(peer.idpMetadata.path)",
              "sp_entity_id": "\(SAMLPeerInteropTests.spEntityID)", "acs_url": "\(SAMLPeerInteropTests.acsURL)",
              "sp_key_file": "\(SAMLPeerInteropTests.key("sp.key"))", "sp_cert_file": "\(SAMLPeerInteropTests.key("sp.crt"))",
              "verify_response": true}}
            """
        ])
    }

    @Test func nativeLoginInterceptedAuthnRequestAndLogout() async throws {
        let peer = try await SAMLPeer(extraArguments: ["--login-password", "wonderland"])
        defer { peer.stop() }
        let adapter = try workspace(peer)
        defer { adapter.cleanUp() }

        // Wrong credentials: the IdP shows its form again.
        let wrong = try await adapter.authorize(
            [
                "--app", "com.example.mail", "--operation", "login", peer.entityID, "--username", "alice",
                "--password-stdin",
            ],
            password: "guess")
        #expect(wrong.status == 1 && wrong.reason == "invalid_credentials", "\(wrong.stdout) \(wrong.stderr)")

        // A native login: our signed AuthnRequest, the IdP's form, the verified assertion as `saml verify` prints it.
        let login = try await adapter.authorize(
            [
                "--app", "com.example.mail", "--operation", "login", peer.entityID, "--username", "alice",
                "--password-stdin",
            ],
            password: "wonderland")
        try #require(login.result == "http_response", "\(login.stdout) \(login.stderr) \(peer.log())")
        let assertion = try #require(login.bodyObject)
        #expect(assertion["name_id"] as? String == SAMLPeerInteropTests.user)
        #expect(assertion["issuer"] as? String == peer.entityID)
        #expect(assertion["attributes"] as? [String: [String]] == SAMLPeerInteropTests.attributes)
        #expect(login.headers["Cache-Control"] == "no-store")
        let refresh = try await adapter.authorize([
            "--app", "com.example.mail", "--operation", "refresh", peer.entityID, "--silent",
        ])
        #expect(refresh.bodyObject?["name_id"] as? String == SAMLPeerInteropTests.user, "\(refresh.stdout)")

        // A web app's signed AuthnRequest, intercepted: the IdP session answers it, the page becomes a compact form.
        let request = try await ProcessRunner.run(
            MockProvider.ssokit,
            [
                "saml", "authn-request", "--idp-metadata", peer.idpMetadata.path, "--sp-entity-id",
                SAMLPeerInteropTests.spEntityID, "--acs-url", SAMLPeerInteropTests.acsURL, "--binding", "redirect",
                "--relay-state", "web-1", "--sign-key", SAMLPeerInteropTests.key("sp.key"), "--sign-cert",
                SAMLPeerInteropTests.key("sp.crt"), "--json",
            ], timeout: 60)
        let url = try #require(request.json?["url"] as? String, "\(request.stdout)")
        let intercepted = try await adapter.authorize(["--app", "com.apple.Safari", url, "--silent"])
        try #require(intercepted.result == "http_response", "\(intercepted.stdout) \(peer.log())")
        #expect(intercepted.json?["status"] as? Int == 200)
        #expect(Set(intercepted.headers.keys) == ["Cache-Control", "Content-Type", "Content-Security-Policy"])
        let page = try #require(intercepted.json?["body"] as? String)
        let form = try AutoPostFormParser().parse(page)
        #expect(form.action == SAMLPeerInteropTests.acsURL && form.relayState == "web-1" && form.kind == .response)
        #expect(page.utf8.count - form.message.utf8.count < 1024)
        let file = adapter.workspace.base.appendingPathComponent("intercepted.b64")
        try Data(form.message.utf8).write(to: file)
        let verify = try await ProcessRunner.run(
            MockProvider.ssokit,
            [
                "saml", "verify", file.path, "--idp-metadata", peer.idpMetadata.path, "--sp-entity-id",
                SAMLPeerInteropTests.spEntityID, "--acs-url", SAMLPeerInteropTests.acsURL, "--request-id",
                try #require(request.json?["request_id"] as? String),
            ], timeout: 60)
        #expect(verify.status == 0, "\(verify.stdout)")

        // logout with end_session: the next intercepted request needs the user again.
        let logout = try await adapter.authorize(
            ["--app", "com.example.mail", "--operation", "logout", peer.entityID, "--option", "end_session=true"])
        #expect(
            logout.bodyObject?["logged_out"] as? Bool == true
                && logout.bodyObject?["idp_session_ended"] as? Bool == true)
        let again = try await adapter.authorize(["--app", "com.apple.Safari", url, "--silent"])
        #expect(again.status == 1 && again.reason == "login_required", "\(again.stdout)")
    }
}
