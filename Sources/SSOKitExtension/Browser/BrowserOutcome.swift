import Foundation
import HTTPTypes
import SSOKitSAML

/// One request the IdP browser makes.
struct BrowserStep: Sendable {
    var method: HTTPRequest.Method
    var url: URL
    var body: [UInt8]?
    var contentType: String?

    /// A GET of `url`.
    static func get(_ url: URL) -> BrowserStep {
        BrowserStep(method: .get, url: url, body: nil, contentType: nil)
    }

    /// A form POST of `body` to `url`.
    static func postForm(_ url: URL, body: [UInt8]) -> BrowserStep {
        BrowserStep(method: .post, url: url, body: body, contentType: "application/x-www-form-urlencoded")
    }
}

/// Where a walk through the IdP ended.
enum BrowserOutcome: Sendable {
    /// A redirect that leaves the IdP (to the redirect URI, the web app, ...).
    case left(URL)
    /// A page that auto-posts a SAML message to a place outside the IdP (a SAMLResponse to the ACS).
    case autoPost(AutoPostFormContent)
    /// A page with a login form.
    case loginForm(LoginForm)
    /// Any other page, with its status.
    case page(status: Int)
}
