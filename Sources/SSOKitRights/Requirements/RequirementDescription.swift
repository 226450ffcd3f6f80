import Foundation

/// The persisted form of a ``RightRequirement``: structure, labels, names, salts, costs and check values; never a
/// passphrase, a derived key or an evaluator.
indirect enum RequirementDescription: Codable, Sendable, Hashable {
    case passphrase(label: String, salt: [UInt8], cost: PassphraseCost, check: [UInt8])
    case custom(name: String)
    case anyOf([RequirementDescription])
    case allOf([RequirementDescription])

    init(_ requirement: RightRequirement) {
        switch requirement {
        case .passphrase(let passphrase):
            self = .passphrase(
                label: passphrase.label, salt: passphrase.salt, cost: passphrase.cost, check: passphrase.check)
        case .custom(let custom): self = .custom(name: custom.name)
        case .anyOf(let children): self = .anyOf(children.map(RequirementDescription.init))
        case .allOf(let children): self = .allOf(children.map(RequirementDescription.init))
        }
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
