/// One member of a JSON object, as the document wrote it: what ``JSONParser/parseObjectMembers(_:)`` returns, so that
/// a caller reading a few known names need not hash every name into a dictionary.
package struct JSONMember: Sendable {
    /// The member's name.
    package var name: String { spelledName ?? nameKey.name }
    /// The member's value.
    package let value: JSONValue
    /// ``name`` packed for quick matching, or ``JSONNameKey/none``.
    package let nameKey: JSONNameKey
    /// The name, when ``nameKey`` does not hold it; a keyed name is made into a `String` only when asked for (the
    /// parser's callers mostly match keys and never need it).
    private let spelledName: String?

    /// Creates a member.
    package init(name: String, value: JSONValue) {
        let key = JSONNameKey(name)
        self.init(nameKey: key, spelledName: key == .none ? name : nil, value: value)
    }

    /// Creates a member whose name is `nameKey`'s, or `spelledName` when `nameKey` is ``JSONNameKey/none``.
    init(nameKey: JSONNameKey, spelledName: String?, value: JSONValue) {
        self.nameKey = nameKey
        self.spelledName = spelledName
        self.value = value
    }
}

extension [JSONMember] {
    /// Whether two members share a name, compared as `String` compares them (the rule a dictionary key follows,
    /// so the answer is the same as building one): pairwise for a short list, through a set for a long one.
    package var hasDuplicateNames: Bool {
        if count <= 16 {
            // Two keyed (short ASCII) names are equal exactly when their keys are; any other pair is compared as
            // `String`s.
            return withUnsafeBufferPointer { members in
                for first in members.indices {
                    let firstKey = members[first].nameKey.bits
                    for second in (first + 1)..<members.count {
                        let secondKey = members[second].nameKey.bits
                        if firstKey != 0 && secondKey != 0 {
                            if firstKey == secondKey { return true }
                        } else if members[first].name == members[second].name {
                            return true
                        }
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
