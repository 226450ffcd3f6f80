/// The pages the IdP shows a browser.
enum IdPPages {
    /// The login form: posts the handle of the pending login, the username and the password to `/login`.
    static func login(handle: String, audience: String, username: String?, message: String?) -> HTMLPage {
        let escape = HTMLPage.escape
        var content = "<p>Sign in to continue to <strong>\(escape(audience))</strong>.</p>\n"
        if let message { content += "<p class=\"error\" role=\"alert\">\(escape(message))</p>\n" }
        content += """
            <form method="post" action="/login">
            <input type="hidden" name="login" value="\(escape(handle))">
            <label for="username">Username</label>
            <input type="text" id="username" name="username" value="\(escape(username ?? ""))" autocomplete="username" \
            required autofocus>
            <label for="password">Password</label>
            <input type="password" id="password" name="password" autocomplete="current-password" required>
            <button type="submit" name="action" value="login">Sign in</button>
            <button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
            </form>
            """
        return HTMLPage(title: "Sign in", content: content)
    }

    /// The RP-Initiated Logout confirmation (OIDC RP-Initiated Logout 1.0 §2: the OP should ask).
    static func confirmLogout(handle: String) -> HTMLPage {
        HTMLPage(
            title: "Sign out",
            content: """
                <p>Do you want to sign out of the development IdP?</p>
                <form method="post" action="/logout/confirm">
                <input type="hidden" name="logout" value="\(HTMLPage.escape(handle))">
                <button type="submit">Sign out</button>
                </form>
                """)
    }

    /// After a logout with nowhere to go back to.
    static var signedOut: HTMLPage {
        HTMLPage(
            title: "Signed out", content: "<p>You are signed out of the development IdP.</p>", formAction: "'none'")
    }

    /// A refusal shown to the browser (when the requester cannot be trusted with a redirect).
    static func error(_ error: DevIdPError) -> HTMLPage {
        HTMLPage(
            title: "Request refused",
            content: """
                <p class="error">\(HTMLPage.escape(error.reason))</p>
                <p>Error code: <code>\(HTMLPage.escape(error.code.description))</code></p>
                """, formAction: "'none'")
    }
}
