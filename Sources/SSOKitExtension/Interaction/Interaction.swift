import Foundation

/// What the user must do before a request can complete. The host shows it, then resumes with
/// ``RedirectExtension/resume(interaction:with:)`` and the ``id`` (once, before ``expiresAt``).
public struct Interaction: Sendable, Hashable {
    /// What is asked of the user.
    public enum Kind: Sendable, Hashable {
        /// The IdP's login form asks for these fields; resume with ``InteractionResponse/credentials(_:)``.
        case credentials(fields: [CredentialField])
        /// The user opens `url` in a browser; resume with ``InteractionResponse/callbackURL(_:)`` and the URL the
        /// IdP redirected the browser to.
        case browser(url: URL)
    }

    /// Unguessable (128 random bits, base64url): it names a pending login in the shared store.
    public let id: String
    /// What is asked.
    public let kind: Kind
    /// After this instant the interaction can no longer be resumed.
    public let expiresAt: Date

    /// Creates an interaction.
    public init(id: String, kind: Kind, expiresAt: Date) {
        self.id = id
        self.kind = kind
        self.expiresAt = expiresAt
    }
}

/// One field of an IdP's login form.
public struct CredentialField: Sendable, Hashable, Codable {
    /// The form field's name, as the IdP named it (`username`, `password`, `sub`, ...).
    public let name: String
    /// Whether it is a password input: ask without echo, never log it.
    public let isSecret: Bool

    /// Creates a field.
    public init(name: String, isSecret: Bool) {
        self.name = name
        self.isSecret = isSecret
    }
}
