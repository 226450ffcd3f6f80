import SSOKitCore
import Synchronization

/// Every claim of a token, kept as the parser read them; the dictionary ``IDTokenClaims/all`` shows is built on
/// first use only, since verification itself reads nothing but the standard claims.
final class IDTokenClaimStorage: Sendable {
    private let members: [JSONMember]
    private let dictionary: Mutex<[String: JSONValue]?>

    /// Claims read from a token (names already unique: the parser refuses duplicates).
    init(members: [JSONMember]) {
        self.members = members
        dictionary = Mutex(nil)
    }

    /// Claims given as a dictionary.
    init(dictionary: [String: JSONValue]) {
        members = []
        self.dictionary = Mutex(dictionary)
    }

    /// The claims by name, built once.
    var all: [String: JSONValue] {
        dictionary.withLock { built in
            if let built { return built }
            var claims = [String: JSONValue](minimumCapacity: members.count)
            for member in members { claims[member.name] = member.value }
            built = claims
            return claims
        }
    }
}
