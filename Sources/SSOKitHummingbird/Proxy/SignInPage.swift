import HTTPTypes
import SSOKitExtension

/// The extension's own sign-in page for a credentials interaction in a browser: a small HTML form, posted back to
/// the intercepted URL (so the proxy brings the answer to the extension, never to the IdP), carrying the
/// interaction's ID in ``interactionField``. No script, no external resource; every value escaped.
struct SignInPage {
    /// The hidden field that names the interaction a posted form answers.
    static let interactionField = "ssokit_interaction"

    let interaction: Interaction
    let fields: [CredentialField]
    /// The intercepted URL the form posts to.
    let action: String
    /// A line shown above the form (a refusal), if any.
    var notice: String?

    var html: String {
        var inputs = ""
        for (index, field) in fields.enumerated() where field.name != Self.interactionField {
            let name = HTMLText.escape(field.name)
            let type = field.isSecret ? "password" : "text"
            let focus = index == 0 ? " autofocus" : ""
            inputs += """
                <label>\(name)<br><input type="\(type)" name="\(name)"\(focus) required></label><br>

                """
        }
        let message = notice.map { "<p role=\"alert\">\(HTMLText.escape($0))</p>\n" } ?? ""
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Sign in</title>
            <meta name="referrer" content="no-referrer"></head>
            <body><h1>Sign in</h1>
            \(message)<form method="post" action="\(HTMLText.escape(action))">
            \(inputs)<input type="hidden" name="\(Self.interactionField)" value="\(HTMLText.escape(interaction.id))">
            <button type="submit">Sign in</button>
            </form></body></html>

            """
    }

    /// A 200 with the page, not cached, framed by nobody.
    static func response(_ html: String, status: HTTPResponse.Status = .ok, setCookie: String? = nil) -> (
        HTTPResponse, [UInt8]
    ) {
        var fields = HTTPFields()
        fields[.contentType] = "text/html; charset=utf-8"
        fields[.cacheControl] = "no-store"
        fields[.contentSecurityPolicy] = "default-src 'none'; form-action 'self'; frame-ancestors 'none'"
        if let setCookie { fields[.setCookie] = setCookie }
        return (HTTPResponse(status: status, headerFields: fields), Array(html.utf8))
    }
}
