import SSOKitCore
import SSOKitOIDC

extension ProfileValue {
    /// Converts a parsed JSON value. `null` has no property-list form: a member that is `null` is treated as absent
    /// (the caller drops it), and `null` inside an array is refused.
    static func fromJSON(_ value: JSONValue) throws(ProfileError) -> ProfileValue? {
        switch value {
        case .null: return nil
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .number(let number): return .real(number)
        case .string(let text): return .string(text)
        case .array(let elements):
            var converted: [ProfileValue] = []
            converted.reserveCapacity(elements.count)
            for element in elements {
                guard let value = try fromJSON(element) else {
                    throw ProfileError(.malformedProfile, "an array holds null, which a profile cannot")
                }
                converted.append(value)
            }
            return .array(converted)
        case .object(let members):
            var converted: [String: ProfileValue] = [:]
            for (name, member) in members {
                // As in a property list's <key>: names that differ in bytes may compare equal in Swift.
                guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
                    throw ProfileError(.malformedProfile, "a member name is not ASCII")
                }
                if let value = try fromJSON(member) { converted[name] = value }
            }
            return .dictionary(converted)
        }
    }
}
