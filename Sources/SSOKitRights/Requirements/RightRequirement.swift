/// What must be satisfied to authorize a ``Right``: passphrases and custom evaluators, combined with any-of and
/// all-of.
public indirect enum RightRequirement: Sendable {
    /// A passphrase must be entered.
    case passphrase(PassphraseRequirement)
    /// The caller's evaluator must agree.
    case custom(CustomRequirement)
    /// At least one of the requirements must be met (tried in order).
    case anyOf([RightRequirement])
    /// Every requirement must be met.
    case allOf([RightRequirement])

    /// At most this many leaves (passphrases and custom requirements) in one requirement.
    public static let maximumLeaves = 16
    /// At most this many ways to satisfy one requirement (any-of/all-of expanded).
    public static let maximumAlternatives = 16

    /// The leaves in pre-order: their positions number them everywhere else.
    var leaves: [Leaf] {
        switch self {
        case .passphrase(let requirement): [.passphrase(requirement)]
        case .custom(let requirement): [.custom(requirement)]
        case .anyOf(let children), .allOf(let children): children.flatMap(\.leaves)
        }
    }

    /// A leaf of the tree.
    enum Leaf: Sendable {
        case passphrase(PassphraseRequirement)
        case custom(CustomRequirement)
    }

    /// Checks the shape: non-empty combinations, bounded leaves and alternatives.
    func validate() throws(RightError) {
        guard leaves.count <= Self.maximumLeaves else {
            throw RightError(.invalidRequirement, "a requirement has at most \(Self.maximumLeaves) leaves")
        }
        _ = try alternatives()
    }

    /// The sets of leaf positions that each satisfy the requirement (disjunctive normal form), in evaluation order.
    func alternatives() throws(RightError) -> [[Int]] {
        var next = 0
        return try alternatives(nextLeaf: &next)
    }

    private func alternatives(nextLeaf: inout Int) throws(RightError) -> [[Int]] {
        switch self {
        case .passphrase, .custom:
            defer { nextLeaf += 1 }
            return [[nextLeaf]]
        case .anyOf(let children):
            guard !children.isEmpty else { throw RightError(.invalidRequirement, "any-of needs a requirement") }
            var result: [[Int]] = []
            for child in children { result += try child.alternatives(nextLeaf: &nextLeaf) }
            return try Self.bounded(result)
        case .allOf(let children):
            guard !children.isEmpty else { throw RightError(.invalidRequirement, "all-of needs a requirement") }
            var result: [[Int]] = [[]]
            for child in children {
                let options = try child.alternatives(nextLeaf: &nextLeaf)
                result = try Self.bounded(result.flatMap { prefix in options.map { prefix + $0 } })
            }
            return result
        }
    }

    private static func bounded(_ alternatives: [[Int]]) throws(RightError) -> [[Int]] {
        guard alternatives.count <= maximumAlternatives else {
            throw RightError(.invalidRequirement, "a requirement expands to more than \(maximumAlternatives) ways")
        }
        return alternatives
    }
}
