import SSOKitOIDC
import SSOKitSAML

/// A small HTML page of the IdP's own: a doctype, a title, one inline style sheet allowed by a nonce, a notice that
/// the IdP is for development, and a body fragment whose every value was escaped when it was written.
struct HTMLPage: Sendable {
    let title: String
    /// The body, already HTML.
    let content: String
    /// Extra `form-action` sources; nil leaves form targets (and the redirects that follow them) unrestricted.
    let formAction: String?
    private let nonce = RandomToken.make(byteCount: 16)

    init(title: String, content: String, formAction: String? = nil) {
        self.title = title
        self.content = content
        self.formAction = formAction
    }

    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>\(Self.escape(title))</title>
        <style nonce="\(nonce)">
        body{font:16px/1.4 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
        .dev{background:#fff3cd;border:1px solid #e0c36a;padding:.4rem .6rem;font-size:.85rem}
        .error{color:#a40000}label{display:block;margin:.8rem 0 .2rem}
        input[type=text],input[type=password]{width:100%;padding:.4rem;box-sizing:border-box}
        button{margin-top:1rem;padding:.4rem 1rem}
        </style></head><body>
        <p class="dev">SSOKit development IdP: for development, demos and tests only.</p>
        <h1>\(Self.escape(title))</h1>
        \(content)
        </body></html>

        """
    }

    var contentSecurityPolicy: String {
        var policy = "default-src 'none'; style-src 'nonce-\(nonce)'; frame-ancestors 'none'; base-uri 'none'"
        if let formAction { policy += "; form-action \(formAction)" }
        return policy
    }

    /// Escapes text for the page (the SAML module's markup escaping).
    static func escape(_ text: String) -> String { SAMLText.escape(text) }
}
