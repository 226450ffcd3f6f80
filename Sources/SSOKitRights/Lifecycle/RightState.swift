import Foundation

/// Where a ``Right`` is in its lifecycle: unknown → authorizing → authorized / notAuthorized; authorized →
/// notAuthorized on ``Right/deauthorize()`` or when the right is deallocated.
public enum RightState: Sendable, Hashable, CustomStringConvertible {
    /// Never authorized yet.
    case unknown
    /// An authorization is running.
    case authorizing
    /// The requirements were met; protected operations are allowed.
    case authorized
    /// Denied, cancelled, deauthorized or deallocated.
    case notAuthorized

    /// The snake_case name.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .authorizing: "authorizing"
        case .authorized: "authorized"
        case .notAuthorized: "not_authorized"
        }
    }
}

/// One state change of one right, as ``RightChanges/stream()`` reports it.
public struct RightStateChange: Sendable, Hashable {
    /// The right instance that changed.
    public var rightID: UUID
    /// Its persisted identifier, if persisted.
    public var identifier: String?
    /// The new state.
    public var state: RightState
}
