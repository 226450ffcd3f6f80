import HTTPTypes
import Hummingbird
import NIOCore
import SSOKitHummingbird

/// The example's two pages.
enum Pages {
    /// The public home page: links to the sign-ins the app offers.
    static func home(_ configuration: RelyingPartyConfiguration) -> Response {
        var links = ""
        if configuration.openIDConnect != nil {
            links +=
                "<li><a href=\"\(configuration.paths.openIDConnectSignIn)?return_to=/profile\">"
                + "Sign in with OpenID Connect</a></li>\n"
        }
        if configuration.saml != nil {
            links += "<li><a href=\"\(configuration.paths.samlSignIn)?return_to=/profile\">Sign in with SAML</a></li>\n"
        }
        return page("Protected web app", "<ul>\n\(links)</ul>\n<p><a href=\"/profile\">Your profile</a></p>")
    }

    /// The protected page: who is signed in, and a sign-out button.
    static func profile(_ user: SignedInUser?, signOutPath: String) -> Response {
        guard let user else { return page("Not signed in", "<p>Not signed in.</p>") }
        let via = user.signInProtocol == .saml ? "SAML" : "OpenID Connect"
        return page(
            "Your profile",
            """
            <p>Signed in as <strong>\(HTMLText.escape(user.displayName))</strong> with \(via).</p>
            <p>Subject <code>\(HTMLText.escape(user.subject))</code> at <code>\(HTMLText.escape(user.issuer))</code></p>
            <form method="post" action="\(signOutPath)"><button type="submit">Sign out</button></form>
            """)
    }

    private static func page(_ title: String, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title></head><body>
            <h1>\(title)</h1>
            \(body)
            </body></html>

            """
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
