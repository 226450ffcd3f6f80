import Foundation

/// The minimal HTML page that makes a browser POST a SAML message: the HTTP-POST binding (SAML Bindings 2.0 §3.5.4).
///
/// The page holds a `<form method="post">` with the message and the RelayState as hidden inputs, a script that
/// submits it, and a Continue button inside `<noscript>` for browsers without JavaScript. Every value is checked
/// when the form is created and HTML-escaped in the page:
///
/// ```swift
/// let form = try AutoPostForm(action: acsURL, kind: .response, message: encodedResponse,
///                             relayState: relayState, scriptNonce: nonce)
/// // Serve `form.html` as text/html with `form.contentSecurityPolicy` as the Content-Security-Policy header.
/// ```
public struct AutoPostForm: Sendable, Hashable {
    /// Which SAML message the form carries; the raw value is the form field's name.
    public enum MessageKind: String, Sendable, Hashable, CaseIterable {
        /// A `<samlp:Response>` (or `<samlp:LogoutResponse>`), posted as `SAMLResponse`.
        case response = "SAMLResponse"
        /// A request such as `<samlp:AuthnRequest>` or `<samlp:LogoutRequest>`, posted as `SAMLRequest`.
        case request = "SAMLRequest"
    }

    /// Longest RelayState accepted, in UTF-8 bytes (SAML Bindings 2.0 §3.5.3).
    public static let maximumRelayStateBytes = AutoPostValidation.maximumRelayStateBytes

    /// Where the form posts: an absolute `http` or `https` URL, as given.
    public let action: String
    /// Which message the form carries.
    public let kind: MessageKind
    /// The base64-encoded message, as given.
    public let message: String
    /// The RelayState, posted as is when present.
    public let relayState: String?
    /// The nonce on the inline script, matched by ``contentSecurityPolicy``.
    public let scriptNonce: String?

    /// Checks the values and creates the form.
    ///
    /// - Parameters:
    ///   - action: The recipient's endpoint (the ACS URL, or the IdP's SSO or SLO URL). It must be an absolute
    ///     `http` or `https` URL with a host and no user info, written in printable ASCII without spaces or
    ///     backslashes: `javascript:`, `data:`, relative and scheme-less URLs, and whitespace or control-character
    ///     tricks such as `" javascript:"` or `"java\tscript:"` are refused.
    ///   - kind: Whether the message is a response or a request.
    ///   - message: The base64-encoded message: only `A`–`Z`, `a`–`z`, `0`–`9`, `+`, `/`, `=`, CR and LF.
    ///   - relayState: The RelayState to post back, at most 80 UTF-8 bytes, without control characters other than
    ///     tab, CR and LF (the page cannot carry them).
    ///   - scriptNonce: A fresh nonce for the inline script, when the page is served with a Content Security
    ///     Policy: base64 or base64url characters, optionally ending in up to two `=`.
    /// - Throws: ``SAMLError`` with ``SAMLError/Code/invalidURL`` for the action,
    ///   ``SAMLError/Code/invalidEncoding`` for the message or a control character in the RelayState,
    ///   ``SAMLError/Code/relayStateTooLong`` for the RelayState's length, and ``SAMLError/Code/invalidMessage`` for
    ///   the nonce.
    public init(
        action: String, kind: MessageKind, message: String, relayState: String? = nil, scriptNonce: String? = nil
    ) throws(SAMLError) {
        _ = try AutoPostValidation.actionComponents(action)
        guard AutoPostValidation.isBase64Text(message.utf8, allowingLineBreaks: true) else {
            throw SAMLError(.invalidEncoding, "the \(kind.rawValue) value is empty or not base64")
        }
        if let relayState, relayState.utf8.count > Self.maximumRelayStateBytes {
            throw SAMLError(.relayStateTooLong, "the RelayState is longer than \(Self.maximumRelayStateBytes) bytes")
        }
        if let relayState, relayState.unicodeScalars.contains(where: AutoPostValidation.isUnwritableControl) {
            throw SAMLError(.invalidEncoding, "the RelayState holds a control character that the page cannot carry")
        }
        if let scriptNonce, !AutoPostValidation.isNonce(scriptNonce) {
            throw SAMLError(.invalidMessage, "the script nonce is not made of base64 or base64url characters")
        }
        self.action = action
        self.kind = kind
        self.message = message
        self.relayState = relayState
        self.scriptNonce = scriptNonce
    }

    /// The values this form posts, in the shape ``AutoPostFormParser`` returns.
    public var content: AutoPostFormContent {
        AutoPostFormContent(action: action, kind: kind, message: message, relayState: relayState)
    }

    /// The UTF-8 HTML page: a doctype, a head with `<meta charset="utf-8">` and a title, the form with its hidden
    /// inputs and `<noscript>` Continue button, and a script (carrying ``scriptNonce``) that submits the form.
    ///
    /// Apart from the escaped values the page is under 1 KiB.
    public var html: String {
        let nonce = scriptNonce.map { " nonce=\"\(HTMLAttributeText.escape($0))\"" } ?? ""
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Continue signing in</title></head><body>
            <form method="post" action="\(HTMLAttributeText.escape(action))">
            \(Self.hiddenInput(kind.rawValue, message))

            """
        if let relayState {
            page += Self.hiddenInput("RelayState", relayState) + "\n"
        }
        page += """
            <noscript><p>JavaScript is off: press Continue.</p><button type="submit">Continue</button></noscript>
            </form>
            <script\(nonce)>document.forms[0].submit();</script>
            </body></html>

            """
        return page
    }

    /// A Content-Security-Policy header value for ``html``, or `nil` without a ``scriptNonce``.
    ///
    /// `default-src 'none'; script-src 'nonce-…'; form-action <origin>; base-uri 'none'`: nothing loads, only the
    /// page's own script runs, and the form may only post to the action's origin (`scheme://host[:port]`, or
    /// just `scheme:` when CSP cannot spell the host, as for IPv6 literals). Browsers also hold redirects that
    /// follow the submission to `form-action`; if the recipient redirects to another origin, send a policy of your
    /// own that also lists it.
    public var contentSecurityPolicy: String? {
        guard let scriptNonce, let components = try? AutoPostValidation.actionComponents(action) else {
            return nil
        }
        let origin = AutoPostValidation.originSource(of: components)
        return "default-src 'none'; script-src 'nonce-\(scriptNonce)'; form-action \(origin); base-uri 'none'"
    }

    /// `<input type="hidden" name="…" value="…">` with both values escaped.
    private static func hiddenInput(_ name: String, _ value: String) -> String {
        let name = HTMLAttributeText.escape(name)
        let value = HTMLAttributeText.escape(value)
        return "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">"
    }
}
