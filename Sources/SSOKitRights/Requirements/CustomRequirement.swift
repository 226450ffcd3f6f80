/// What a custom evaluator is told when it is asked to decide.
public struct CustomEvaluationRequest: Sendable {
    /// The requirement's name.
    public var name: String
    /// Why the app asks, as given to ``Right/authorize(localizedReason:)``.
    public var localizedReason: String
    /// The persisted right's identifier, when the right is persisted.
    public var rightIdentifier: String?
}

/// A requirement decided by the caller's own code (a second factor, a policy check, a hardware token). A persisted
/// right stores only the name; the evaluator is supplied again when the right is loaded.
///
/// A custom requirement is enforced by this process, not by cryptography: a persisted right whose requirements a
/// custom evaluator alone can satisfy keeps its material sealed under the store's device key only.
public struct CustomRequirement: Sendable {
    /// A stable name, persisted with the right.
    public let name: String
    let evaluate: @Sendable (CustomEvaluationRequest) async -> Bool

    /// Creates a requirement that is met when `evaluate` returns true.
    public init(name: String, evaluate: @escaping @Sendable (CustomEvaluationRequest) async -> Bool) {
        self.name = name
        self.evaluate = evaluate
    }
}
