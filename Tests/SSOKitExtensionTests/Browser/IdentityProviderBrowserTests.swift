import Foundation
import HTTPTypes
import SSOKitConformance
import SSOKitCore
import SSOKitSAML
import Testing

@testable import SSOKitExtension

/// The IdP browser: redirects inside the IdP, where it stops, and its bounds.
@Suite struct IdentityProviderBrowserTests {
    let origins = IdPOrigins([URL(string: "https://idp.test/")!, URL(string: "https://login.idp.test/")!])

    func browser(_ handler: @escaping InMemoryHTTPTransport.Handler, limits: ExtensionLimits = ExtensionLimits())
        -> (IdentityProviderBrowser, InMemoryHTTPTransport)
    {
        let transport = InMemoryHTTPTransport(handler: handler)
        return (IdentityProviderBrowser(transport: transport, clock: SystemClock(), limits: limits), transport)
    }

    static func redirect(_ location: String, cookie: String? = nil) -> HTTPTransportResponse {
        var response = HTTPResponse(status: .found)
        response.headerFields[.location] = location
        if let cookie { response.headerFields[.setCookie] = cookie }
        return HTTPTransportResponse(response: response, body: [])
    }

    static func html(_ text: String) -> HTTPTransportResponse {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "text/html"
        return HTTPTransportResponse(response: response, body: Array(text.utf8))
    }

    @Test func redirectsInsideTheIdPAreFollowedWithItsCookiesAndTheFirstOneOutsideEndsTheWalk() async throws {
        let (browser, transport) = browser { request in
            switch request.urlWithoutQuery {
            case "https://idp.test/start":
                return Self.redirect("https://login.idp.test/step", cookie: "a=1; Domain=idp.test")
            case "https://login.idp.test/step": return Self.redirect("/done?x=1", cookie: "b=2")
            default: return Self.redirect("https://app.test/cb?code=c")
            }
        }
        var jar = CookieJar()
        let outcome = try await browser.navigate(
            .get(URL(string: "https://idp.test/start")!), jar: &jar, origins: origins)
        guard case .left(let location) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(location.absoluteString == "https://app.test/cb?code=c")
        #expect(
            transport.requests.map(\.urlWithoutQuery) == [
                "https://idp.test/start", "https://login.idp.test/step", "https://login.idp.test/done",
            ])
        #expect(transport.requests.last?.request.headerFields[.cookie] == "a=1; b=2")
    }

    @Test func aStopPrefixEndsTheWalkEvenOnTheIdP() async throws {
        let (browser, _) = browser { _ in Self.redirect("https://idp.test/callback?code=1") }
        var jar = CookieJar()
        let outcome = try await browser.navigate(
            .get(URL(string: "https://idp.test/a")!), jar: &jar, origins: origins, stopAt: ["https://idp.test/callback"]
        )
        guard case .left(let url) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(url.path == "/callback")
    }

    @Test func redirectLoopsAreBounded() async throws {
        let (browser, transport) = browser(
            { _ in Self.redirect("https://idp.test/loop") }, limits: ExtensionLimits(maximumRedirects: 3))
        var jar = CookieJar()
        await #expect(throws: AuthorizationFailure(.failed, .tooManyRedirects, "")) {
            try await browser.navigate(.get(URL(string: "https://idp.test/loop")!), jar: &jar, origins: origins)
        }
        #expect(transport.requests.count == 4)
    }

    @Test func plainHTTPOffLoopbackAndForeignStartsAreRefused() async throws {
        let (browser, transport) = browser { _ in Self.html("<p>hi</p>") }
        var jar = CookieJar()
        for start in ["http://idp.test/a", "https://evil.test/a"] {
            await #expect(throws: AuthorizationFailure(.failed, .idpError, "")) {
                try await browser.navigate(.get(URL(string: start)!), jar: &jar, origins: origins)
            }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func pagesAreClassifiedAndOversizePagesRefused() async throws {
        let login = #"<form method=post action="/login"><input name=u><input type=password name=p></form>"#
        let autoPost =
            #"<form method="post" action="https://sp.test/acs"><input type="hidden" name="SAMLResponse" value="PHg+"></form>"#
        let (browser, _) = browser { request in
            switch request.urlWithoutQuery {
            case "https://idp.test/login": return Self.html(login)
            case "https://idp.test/post": return Self.html(autoPost)
            case "https://idp.test/big": return Self.html(String(repeating: "x", count: 2048))
            default: return Self.html("<p>nothing to do</p>")
            }
        }
        var jar = CookieJar()
        let found = try await browser.navigate(
            .get(URL(string: "https://idp.test/login")!), jar: &jar, origins: origins)
        guard case .loginForm(let form) = found else {
            Issue.record("\(found)")
            return
        }
        #expect(form.action.absoluteString == "https://idp.test/login")
        guard
            case .autoPost(let content) = try await browser.navigate(
                .get(URL(string: "https://idp.test/post")!), jar: &jar, origins: origins)
        else {
            Issue.record("no auto-post")
            return
        }
        #expect(content.action == "https://sp.test/acs")
        guard
            case .page(200) = try await browser.navigate(
                .get(URL(string: "https://idp.test/other")!), jar: &jar, origins: origins)
        else {
            Issue.record("not a plain page")
            return
        }
        let (small, _) = self.browser(
            { _ in Self.html(String(repeating: "x", count: 2048)) }, limits: ExtensionLimits(maximumPageBytes: 1024))
        await #expect(throws: AuthorizationFailure(.failed, .idpError, "")) {
            try await small.navigate(.get(URL(string: "https://idp.test/big")!), jar: &jar, origins: origins)
        }
    }

    @Test func anAutoPostToTheIdPItselfIsSubmitted() async throws {
        let (browser, transport) = browser { request in
            if request.request.method == .post {
                #expect(request.formParameters["SAMLRequest"] == "PHg+" && request.formParameters["RelayState"] == "r")
                return Self.redirect("https://app.test/after")
            }
            return Self.html(
                #"<form method="post" action="https://login.idp.test/sso"><input type="hidden" name="SAMLRequest" value="PHg+">"#
                    + #"<input type="hidden" name="RelayState" value="r"></form>"#)
        }
        var jar = CookieJar()
        let outcome = try await browser.navigate(
            .get(URL(string: "https://idp.test/hop")!), jar: &jar, origins: origins)
        guard case .left(let url) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(url.absoluteString == "https://app.test/after" && transport.requests.count == 2)
    }
}
