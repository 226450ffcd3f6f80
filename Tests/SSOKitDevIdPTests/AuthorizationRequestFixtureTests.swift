import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC
import Testing

/// Every case of `fixtures/dev-idp/authorization`: an authorization request and what the IdP must do with it.
@Suite struct AuthorizationRequestFixtureTests {
    static let cases = (try? FixtureLoader.cases(in: "dev-idp/authorization")) ?? []

    @Test func casesArePresent() {
        #expect(Self.cases.count >= 25)
    }

    @Test(arguments: cases)
    func authorizationRequest(_ fixture: FixtureLoader.Case) async throws {
        let pairs = (fixture.members["parameters"]?.arrayValue ?? []).compactMap { pair -> (String, String)? in
            guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue,
                let value = items[1].stringValue
            else { return nil }
            return (name, value)
        }
        let expected = try #require(fixture.members["expected"]?.objectValue)
        let outcome = try #require(expected["outcome"]?.stringValue)
        try await DevIdPHarness.with { idp in
            let page = try await idp.browser().get(idp.issuer + "/authorize?" + FormURLEncoding.encode(pairs))
            switch outcome {
            case "login_form":
                #expect(page.status == 200, "\(fixture.name)")
                #expect(page.isLoginForm, "\(fixture.name)")
                let cookie = try #require(page.setCookie("ssokit_devidp_interaction"))
                #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "\(cookie)")
                #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            case "error_page":
                #expect(page.status == Int(expected["status"]?.int64Value ?? 0), "\(fixture.name): \(page.status)")
                #expect(page.location == nil, "\(fixture.name) must not redirect")
                let error = try #require(expected["error"]?.stringValue)
                #expect(page.body.contains("<code>\(error)</code>"), "\(fixture.name): \(page.body)")
            case "redirect_error":
                #expect(page.status == 302, "\(fixture.name): \(page.status) \(page.body)")
                let redirect = try #require(pairs.first { $0.0 == "redirect_uri" }?.1)
                #expect(page.location?.hasPrefix(redirect + "?") == true, "\(fixture.name)")
                let query = page.locationQuery
                #expect(query["error"] == expected["error"]?.stringValue, "\(fixture.name): \(query)")
                #expect(query["state"] == pairs.first { $0.0 == "state" }?.1)
                #expect(query["iss"] == idp.issuer, "RFC 9207 §2: the error carries iss")
                #expect(query["code"] == nil)
            default:
                Issue.record("unknown outcome \(outcome) in \(fixture.name)")
            }
        }
    }
}
