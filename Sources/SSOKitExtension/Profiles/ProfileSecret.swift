/// A secret read from a profile (`client_secret`, or the contents of `client_secret_file`): its value is there for
/// the code that needs it, and it never shows in descriptions, dumps or logs.
public struct ProfileSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret itself.
    public let value: String

    /// Wraps a secret.
    public init(_ value: String) {
        self.value = value
    }

    /// `<redacted>`.
    public var description: String { "<redacted>" }
    /// `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
