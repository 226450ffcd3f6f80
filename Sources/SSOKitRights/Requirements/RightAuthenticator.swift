/// What the user is asked for when a passphrase requirement is evaluated.
public struct PassphraseRequest: Sendable {
    /// The requirement's label.
    public var label: String
    /// Why the app asks, as given to ``Right/authorize(localizedReason:)``.
    public var localizedReason: String
    /// The persisted right's identifier, when the right is persisted.
    public var rightIdentifier: String?
}

/// The pluggable user interaction behind ``Right/authorize(localizedReason:)``: a terminal prompt in the CLI, a
/// form in a server, a scripted answer in tests.
public protocol RightAuthenticator: Sendable {
    /// Asks for the passphrase described by `request`; nil means the user cancelled.
    func passphrase(for request: PassphraseRequest) async -> String?
}
