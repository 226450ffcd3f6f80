/// A failure of an SSOKit module: a stable, machine-readable code and a human-readable reason that never holds a
/// token, code, assertion or secret.
///
/// Each module has one error struct with an extensible `Code` (a struct of static values whose `description` is a
/// snake_case name, so switch over codes with a `default`). Adopting this protocol gives that struct its
/// `description` (`code: reason`) and makes two errors equal, and hash alike, when their codes are: the reason is
/// for people, the code is for programs.
public protocol SSOKitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; its `description` is its stable snake_case name.
    associatedtype Code: Sendable, Hashable, CustomStringConvertible

    /// What went wrong.
    var code: Code { get }
    /// A human-readable explanation, safe to log.
    var reason: String { get }
}

extension SSOKitError {
    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
