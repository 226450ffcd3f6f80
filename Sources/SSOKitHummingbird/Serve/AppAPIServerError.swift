/// Why ``AppAPIServer`` could not serve.
public struct AppAPIServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable snake_case code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The listener is not allowed (plain TCP beyond loopback, a timeout that is not positive).
        public static let invalidListener = Code("invalid_listener")
        /// The socket could not be bound (in use, no permission, a non-socket file at the path).
        public static let listenFailed = Code("listen_failed")

        public var description: String { name }
    }

    /// The code.
    public var code: Code
    /// What went wrong, for people.
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
