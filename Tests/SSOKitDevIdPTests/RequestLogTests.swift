import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitSAML
import Testing

/// The request log: one line per request, and never a code, token, password, cookie or SAML message.
@Suite struct RequestLogTests {
    @Test func logHoldsNoSecrets() async throws {
        try await DevIdPHarness.with { idp in
            let browser = idp.browser()
            let pkce = PKCE()
            let code = try await idp.code(browser, url: idp.authorizationURL(pkce: pkce))
            let tokens = try await idp.exchange(code, verifier: pkce.verifier).json
            let access = try #require(tokens["access_token"]?.stringValue)
            let refresh = try #require(tokens["refresh_token"]?.stringValue)
            _ = try await idp.userInfo(access)
            _ = try await idp.refresh(refresh)
            let request = try AuthnRequestBuilder(
                serviceProviderEntityID: DevIdPTestValues.signedSP,
                assertionConsumerServiceURL: DevIdPTestValues.signedACS
            ).build(destination: idp.issuer + "/saml/sso")
            let samlURL = try RedirectBinding.url(
                destination: idp.issuer + "/saml/sso", xml: request.xml, relayState: "relay-secret",
                signingKey: try DevIdPTestValues.spKey())
            let page = try await browser.get(samlURL)
            _ = try await browser.get(idp.issuer + "/no/such/path")
            let cookie = try #require(await browser.cookies["ssokit_devidp_session"])
            let log = idp.log
            #expect(log.count == 7, "\(log)")
            let shape = /^(GET|POST) \/[!-~]* [1-5][0-9][0-9] [0-9]+ms$/
            for line in log { #expect(line.wholeMatch(of: shape) != nil, "\(line)") }
            #expect(log.contains { $0.hasPrefix("POST /login 303 ") })
            #expect(log.contains { $0.hasPrefix("GET /no/such/path 404 ") })
            let secrets = [code, pkce.verifier, access, refresh, cookie, DevIdPTestValues.password, "relay-secret"]
            for secret in secrets { #expect(!log.joined().contains(secret)) }
            #expect(!log.joined().contains("SAMLRequest") && !log.joined().contains("?"))
            #expect(page.status == 200)
        }
    }
}
