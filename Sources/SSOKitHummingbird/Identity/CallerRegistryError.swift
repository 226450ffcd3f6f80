/// Why a caller registry file was refused. The message names the member at fault, never its value.
public struct CallerRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable snake_case code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The file is not the registry's JSON shape (CLI-CONTRACT.md, `ssokit serve`).
        public static let invalidRegistry = Code("invalid_registry")

        public var description: String { name }
    }

    /// The code.
    public var code: Code
    /// What is wrong, for people.
    public var message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
