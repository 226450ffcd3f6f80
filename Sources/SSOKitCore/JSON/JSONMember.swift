/// One member of a JSON object, as the document wrote it: what ``JSONParser/parseObjectMembers(_:)`` returns, so that
/// a caller reading a few known names need not hash every name into a dictionary.
package struct JSONMember: Sendable {
    /// The member's name.
    package let name: String
    /// The member's value.
    package let value: JSONValue

    /// Creates a member.
    package init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }
}

extension [JSONMember] {
    /// Whether two members share a name, compared as `String` compares them (the rule a dictionary key follows,
    /// so the answer is the same as building one): pairwise for a short list, through a set for a long one.
    package var hasDuplicateNames: Bool {
        if count <= 16 {
            for first in indices {
                for second in index(after: first)..<endIndex where self[first].name == self[second].name {
                    return true
                }
            }
            return false
        }
        var seen = Set<String>(minimumCapacity: count)
        for member in self where !seen.insert(member.name).inserted { return true }
        return false
    }
}
