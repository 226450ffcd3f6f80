import Foundation
import SSOKitTokenCache
import Testing

@testable import SSOKitExtension

/// The cookie jar's RFC 6265 subset.
@Suite struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    func url(_ text: String) -> URL { URL(string: text)! }

    @Test func hostOnlyCookiesGoBackToTheirHostOnly() {
        var jar = CookieJar()
        jar.store(setCookie: "sid=abc; Path=/; HttpOnly", from: url("https://idp.test/login"), now: now)
        #expect(jar.header(for: url("https://idp.test/authorize"), now: now) == "sid=abc")
        #expect(jar.header(for: url("https://sub.idp.test/"), now: now) == nil)
        #expect(jar.header(for: url("https://other.test/"), now: now) == nil)
    }

    @Test func domainCookiesGoToSubdomainsButNotToPublicSuffixesOrForeignDomains() {
        var jar = CookieJar()
        jar.store(setCookie: "a=1; Domain=.example.com", from: url("https://login.example.com/"), now: now)
        jar.store(setCookie: "b=2; Domain=com", from: url("https://login.example.com/"), now: now)
        jar.store(setCookie: "c=3; Domain=evil.test", from: url("https://login.example.com/"), now: now)
        #expect(jar.header(for: url("https://api.example.com/x"), now: now) == "a=1")
        #expect(jar.cookies.map(\.name) == ["a"])
    }

    @Test func pathsMatchAsRFC6265SaysLongestFirst() {
        var jar = CookieJar()
        jar.store(setCookie: "root=1; Path=/", from: url("https://idp.test/"), now: now)
        jar.store(setCookie: "deep=2; Path=/oauth2", from: url("https://idp.test/"), now: now)
        jar.store(setCookie: "default=3", from: url("https://idp.test/saml/sso/login"), now: now)
        #expect(jar.header(for: url("https://idp.test/oauth2/authorize"), now: now) == "deep=2; root=1")
        #expect(jar.header(for: url("https://idp.test/oauth2x"), now: now) == "root=1")
        #expect(jar.header(for: url("https://idp.test/saml/sso/redirect"), now: now) == "default=3; root=1")
    }

    @Test func theDefaultPathIsFoundInTheBytesEvenAfterRegionalIndicators() {
        var jar = CookieJar()
        let flags = String(repeating: "%F0%9F%87%A6", count: 16_384)
        jar.store(setCookie: "f=1", from: url("https://idp.test/a/\(flags)/b"), now: now)
        #expect(jar.header(for: url("https://idp.test/a/\(flags)/c"), now: now) == "f=1")
        #expect(jar.header(for: url("https://idp.test/a/c"), now: now) == nil)
    }

    @Test func secureCookiesNeedHTTPSOrLoopback() {
        var jar = CookieJar()
        jar.store(setCookie: "s=1; Secure", from: url("http://idp.test/"), now: now)
        #expect(jar.isEmpty)
        jar.store(setCookie: "s=1; Secure", from: url("https://idp.test/"), now: now)
        #expect(jar.header(for: url("http://idp.test/"), now: now) == nil)
        #expect(jar.header(for: url("https://idp.test/"), now: now) == "s=1")
        jar.store(setCookie: "l=2; Secure", from: url("http://127.0.0.1:9400/"), now: now)
        #expect(jar.header(for: url("http://127.0.0.1:9400/a"), now: now) == "l=2")
    }

    @Test func expiryMaxAgeAndReplacement() {
        var jar = CookieJar()
        jar.store(setCookie: "a=1; Max-Age=60", from: url("https://idp.test/"), now: now)
        jar.store(setCookie: "b=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT", from: url("https://idp.test/"), now: now)
        jar.store(
            setCookie: "c=1; Expires=Fri, 01-Jan-2027 00:00:00 GMT; Max-Age=10", from: url("https://idp.test/"),
            now: now)
        #expect(jar.cookies.map(\.name) == ["a", "c"])
        #expect(jar.header(for: url("https://idp.test/"), now: now.addingTimeInterval(30)) == "a=1")
        jar.store(setCookie: "a=2", from: url("https://idp.test/"), now: now)
        #expect(jar.cookies.first { $0.name == "a" }?.value == "2")
        jar.store(setCookie: "a=gone; Max-Age=0", from: url("https://idp.test/"), now: now)
        #expect(!jar.cookies.contains { $0.name == "a" })
        jar.removeExpired(now: now.addingTimeInterval(11))
        #expect(jar.isEmpty)
    }

    @Test func hostileHeadersAreIgnoredAndTheJarIsCapped() {
        var jar = CookieJar()
        jar.store(setCookie: "novalue", from: url("https://idp.test/"), now: now)
        jar.store(setCookie: "=x", from: url("https://idp.test/"), now: now)
        jar.store(setCookie: "big=" + String(repeating: "v", count: 5000), from: url("https://idp.test/"), now: now)
        jar.store(setCookie: "ctl=a\u{1}b", from: url("https://idp.test/"), now: now)
        #expect(jar.isEmpty)
        for index in 0..<80 { jar.store(setCookie: "c\(index)=v", from: url("https://idp.test/"), now: now) }
        #expect(jar.cookies.count == CookieJar.maximumCookiesPerDomain)
        #expect(jar.cookies.last?.name == "c79")
    }

    @Test func anotherSiteInTheRedirectChainCannotPushTheIdPsSessionCookiesOut() {
        var jar = CookieJar()
        jar.store(setCookie: "sid=idp-session", from: url("https://idp.test/login"), now: now)
        for site in 0..<4 {
            for index in 0..<60 {
                jar.store(setCookie: "f\(index)=v", from: url("https://flood\(site).test/"), now: now)
            }
        }
        #expect(jar.header(for: url("https://idp.test/authorize"), now: now) == "sid=idp-session")
        #expect(jar.cookies.count <= CookieJar.maximumCookies)
        #expect(jar.cookies.filter { $0.domain == "flood0.test" }.count <= CookieJar.maximumCookiesPerDomain)
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0), ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777), ("Thu, 01 Jan 2026 00:00:00 GMT", 1_767_225_600),
    ])
    func cookieDatesParseAsBrowsersDo(text: String, seconds: Double) {
        #expect(CookieDate.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: ["", "tomorrow", "31 Feb 2026 00:00:00", "Thu, 01 Jan 2026 25:00:00 GMT", "01 Jan 1500 00:00:00"])
    func nonDatesAreRefused(text: String) {
        #expect(CookieDate.parse(text) == nil)
    }
}
