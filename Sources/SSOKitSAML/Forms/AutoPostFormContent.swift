/// What an auto-post form submits: where, which SAML message, and the RelayState.
///
/// ``AutoPostFormParser`` returns one for a form found in a page; ``compactForm(scriptNonce:)`` turns it back into a
/// minimal ``AutoPostForm`` that posts the same values.
public struct AutoPostFormContent: Sendable, Hashable {
    /// The absolute `http` or `https` URL the form posts to.
    public var action: String
    /// Which message the form carries.
    public var kind: AutoPostForm.MessageKind
    /// The base64-encoded message (from a parsed page: with ASCII whitespace removed).
    public var message: String
    /// The RelayState, exactly as posted, or `nil` when the form has none.
    public var relayState: String?

    /// Creates the content from its values; nothing is checked until ``compactForm(scriptNonce:)``.
    public init(action: String, kind: AutoPostForm.MessageKind, message: String, relayState: String? = nil) {
        self.action = action
        self.kind = kind
        self.message = message
        self.relayState = relayState
    }

    /// A minimal form posting these values; this is where a RelayState over 80 bytes is refused.
    ///
    /// - Parameter scriptNonce: The nonce for the form's inline script; see ``AutoPostForm/scriptNonce``.
    /// - Throws: ``SAMLError`` as ``AutoPostForm/init(action:kind:message:relayState:scriptNonce:)`` does.
    public func compactForm(scriptNonce: String? = nil) throws(SAMLError) -> AutoPostForm {
        try AutoPostForm(action: action, kind: kind, message: message, relayState: relayState, scriptNonce: scriptNonce)
    }
}
