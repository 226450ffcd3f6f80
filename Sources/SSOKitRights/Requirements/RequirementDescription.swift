import Foundation

/// The persisted form of a ``RightRequirement``: structure, labels, names, salts, costs and check values; never a
/// passphrase, a derived key or an evaluator.
indirect enum RequirementDescription: Codable, Sendable, Hashable {
    case passphrase(label: String, salt: [UInt8], cost: PassphraseCost, check: [UInt8])
    case custom(name: String)
    case anyOf([RequirementDescription])
    case allOf([RequirementDescription])

    /// Describes `requirement`, storing for each passphrase the check value that `check` computes from its
    /// creation key; a passphrase requirement without one (not created from its passphrase in this process) is
    /// invalid_requirement.
    init(_ requirement: RightRequirement, check: PassphraseCheck) throws(RightError) {
        switch requirement {
        case .passphrase(let passphrase):
            guard let key = passphrase.creationKey else {
                throw RightError(
                    .invalidRequirement, "a passphrase requirement must be created from its passphrase to be persisted")
            }
            self = .passphrase(
                label: passphrase.label, salt: passphrase.salt, cost: passphrase.cost, check: check.value(for: key))
        case .custom(let custom): self = .custom(name: custom.name)
        case .anyOf(let children): self = .anyOf(try Self.describe(children, check: check))
        case .allOf(let children): self = .allOf(try Self.describe(children, check: check))
        }
    }

    private static func describe(_ children: [RightRequirement], check: PassphraseCheck) throws(RightError)
        -> [RequirementDescription]
    {
        var described: [RequirementDescription] = []
        for child in children { described.append(try RequirementDescription(child, check: check)) }
        return described
    }

    /// Rebuilds the requirement, taking custom evaluators by name from `custom`.
    func requirement(custom: [String: CustomRequirement]) throws(RightError) -> RightRequirement {
        switch self {
        case .passphrase(let label, let salt, let cost, let check):
            guard cost.isAcceptable, salt.count == 16, check.count == 32 else {
                throw RightError(.recordUnreadable, "a stored passphrase requirement is malformed")
            }
            return .passphrase(
                PassphraseRequirement(label: label, salt: salt, cost: cost, check: check, creationKey: nil))
        case .custom(let name):
            guard let requirement = custom[name] else {
                throw RightError(.invalidRequirement, "no evaluator was supplied for the custom requirement '\(name)'")
            }
            return .custom(requirement)
        case .anyOf(let children):
            var rebuilt: [RightRequirement] = []
            for child in children { rebuilt.append(try child.requirement(custom: custom)) }
            return .anyOf(rebuilt)
        case .allOf(let children):
            var rebuilt: [RightRequirement] = []
            for child in children { rebuilt.append(try child.requirement(custom: custom)) }
            return .allOf(rebuilt)
        }
    }

    /// A one-line summary for listings: labels and names only.
    var summary: String {
        switch self {
        case .passphrase(let label, _, _, _): "passphrase(\(label))"
        case .custom(let name): "custom(\(name))"
        case .anyOf(let children): "anyOf(\(children.map(\.summary).joined(separator: ", ")))"
        case .allOf(let children): "allOf(\(children.map(\.summary).joined(separator: ", ")))"
        }
    }
}
