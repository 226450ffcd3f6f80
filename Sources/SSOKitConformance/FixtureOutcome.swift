/// The verdict a fixture runner reached for one case.
public struct FixtureOutcome: Sendable, CustomStringConvertible {
    /// The case file name.
    public let name: String
    /// `valid` or the error code the case expects.
    public let expected: String
    /// `valid` or the error code SSOKit produced (or a `*_mismatch` naming a wrong field of a valid result).
    public let actual: String
    /// Whether they agree.
    public var passed: Bool { expected == actual }
    /// `name: expected X, got Y`.
    public var description: String { "\(name): expected \(expected), got \(actual)" }

    /// Creates an outcome.
    public init(name: String, expected: String, actual: String) {
        self.name = name
        self.expected = expected
        self.actual = actual
    }
}
