/// One member of a JSON object, as the document wrote it: what ``JSONParser/parseObjectMembers(_:)`` returns, so that
/// a caller reading a few known names need not hash every name into a dictionary.
package struct JSONMember: Sendable {
    /// The member's name.
    package let name: String
    /// The member's value.
    package let value: JSONValue
    /// ``name`` packed for quick matching, or ``JSONNameKey/none``.
    package let nameKey: JSONNameKey

    /// Creates a member.
    package init(name: String, value: JSONValue) {
        self.init(name: name, value: value, nameKey: JSONNameKey(name))
    }

    init(name: String, value: JSONValue, nameKey: JSONNameKey) {
        self.name = name
        self.value = value
        self.nameKey = nameKey
    }

    /// Whether both members have the same name, as `String` equality (and so a dictionary key) judges it: two keyed
    /// (short ASCII) names are equal exactly when their keys are; anything else is compared as a `String`.
    func hasSameName(as other: JSONMember) -> Bool {
        if nameKey.bits != 0 && other.nameKey.bits != 0 { return nameKey.bits == other.nameKey.bits }
        return name == other.name
    }
}

extension [JSONMember] {
    /// Whether two members share a name, compared as `String` compares them (the rule a dictionary key follows,
    /// so the answer is the same as building one): pairwise for a short list, through a set for a long one.
    package var hasDuplicateNames: Bool {
        if count <= 16 {
            return withUnsafeBufferPointer { members in
                for first in members.indices {
                    for second in (first + 1)..<members.count where members[first].hasSameName(as: members[second]) {
                        return true
                    }
                }
                return false
            }
        }
        var seen = Set<String>(minimumCapacity: count)
        for member in self where !seen.insert(member.name).inserted { return true }
        return false
    }
}
