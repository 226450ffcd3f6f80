import SSOKitCore

/// Every claim of a token, kept as the parser read them. The dictionary ``IDTokenClaims/all`` shows is made only
/// when it is asked for: verification itself reads nothing but the standard claims, and keeping the parser's list
/// costs no allocation beyond the one the parser made.
struct IDTokenClaimStorage: Sendable {
    private enum Source: Sendable {
        case members([JSONMember])
        case dictionary([String: JSONValue])
    }

    private let source: Source

    /// Claims read from a token (names already unique: the parser refuses duplicates).
    init(members: [JSONMember]) {
        source = .members(members)
    }

    /// Claims given as a dictionary.
    init(dictionary: [String: JSONValue]) {
        source = .dictionary(dictionary)
    }

    /// The claims by name.
    var all: [String: JSONValue] {
        switch source {
        case .dictionary(let claims): return claims
        case .members(let members):
            var claims = [String: JSONValue](minimumCapacity: members.count)
            for member in members { claims[member.name] = member.value }
            return claims
        }
    }
}
