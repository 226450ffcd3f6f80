import Crypto

/// The result of asking the user and the evaluators once.
enum RequirementOutcome: Sendable {
    /// The leaves that were met, and the keys derived from the passphrases among them.
    case satisfied(leaves: Set<Int>, keys: [Int: SymmetricKey])
    case denied
}

extension RightRequirement {
    /// Evaluates the tree in order: all-of stops at the first unmet child, any-of at the first met one. Passphrases
    /// are recognized with `check`. Throws `cancelled` when the authenticator returns no passphrase.
    func evaluate(
        reason: String, identifier: String?, authenticator: any RightAuthenticator, check: PassphraseCheck
    ) async throws(RightError) -> RequirementOutcome {
        var next = 0
        var keys: [Int: SymmetricKey] = [:]
        var met: Set<Int> = []
        let satisfied = try await evaluate(
            nextLeaf: &next, reason: reason, identifier: identifier, authenticator: authenticator, check: check,
            keys: &keys, met: &met)
        return satisfied ? .satisfied(leaves: met, keys: keys) : .denied
    }

    private func evaluate(
        nextLeaf: inout Int, reason: String, identifier: String?, authenticator: any RightAuthenticator,
        check: PassphraseCheck, keys: inout [Int: SymmetricKey], met: inout Set<Int>
    ) async throws(RightError) -> Bool {
        switch self {
        case .passphrase(let requirement):
            let position = nextLeaf
            nextLeaf += 1
            let request = PassphraseRequest(
                label: requirement.label, localizedReason: reason, rightIdentifier: identifier)
            guard let passphrase = await authenticator.passphrase(for: request) else {
                throw RightError(.cancelled, "no passphrase was entered")
            }
            guard let key = try requirement.key(for: passphrase, check: check) else { return false }
            keys[position] = key
            met.insert(position)
            return true
        case .custom(let requirement):
            let position = nextLeaf
            nextLeaf += 1
            let request = CustomEvaluationRequest(
                name: requirement.name, localizedReason: reason, rightIdentifier: identifier)
            guard await requirement.evaluate(request) else { return false }
            met.insert(position)
            return true
        case .anyOf(let children), .allOf(let children):
            // any-of is decided by the first met child, all-of by the first unmet one; later children are skipped.
            let needsAll: Bool
            if case .allOf = self { needsAll = true } else { needsAll = false }
            var decided: Bool?
            for child in children {
                if decided != nil {
                    nextLeaf += child.leaves.count
                    continue
                }
                let satisfied = try await child.evaluate(
                    nextLeaf: &nextLeaf, reason: reason, identifier: identifier, authenticator: authenticator,
                    check: check, keys: &keys, met: &met)
                if satisfied != needsAll { decided = satisfied }
            }
            return decided ?? needsAll
        }
    }
}
