/// A request or interaction answer that cannot be read (the JSON of `POST /v1/authorize` or
/// `POST /v1/interactions/ID`): a stable code and a message that never quotes a secret.
public struct AuthorizationInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable kind of failure whose `description` is its snake_case name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The body is not one JSON object.
        public static let invalidJSON = Code("invalid_json")
        /// A member is missing, of the wrong type, or has a value that is not allowed.
        public static let invalidField = Code("invalid_field")
        /// The body or a member is larger than allowed.
        public static let tooLarge = Code("too_large")

        /// The stable snake_case name.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// Which member and why; never the member's value.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
