import Foundation

extension ProfileValue {
    /// Converts what `PropertyListSerialization` returns, refusing nesting deeper than `maximumDepth`.
    ///
    /// On Linux, `<true/>`/`<false/>` arrive as Swift `Bool`, integers and reals as `NSNumber` (which would also cast
    /// to `Bool`), so the Swift type is tested before any bridging cast.
    static func fromPropertyList(_ object: Any, depth: Int = 0, maximumDepth: Int) throws(ProfileError)
        -> ProfileValue
    {
        guard depth <= maximumDepth else {
            throw ProfileError(.malformedProfile, "the property list is nested deeper than \(maximumDepth) levels")
        }
        if let value = object as? String { return .string(value) }
        if type(of: object) == Bool.self, let value = object as? Bool { return .bool(value) }
        if let value = object as? Date { return .date(value) }
        if let value = object as? Data { return .data(Array(value)) }
        if let number = object as? NSNumber { return number.profileValue }
        if let array = object as? [Any] {
            var elements: [ProfileValue] = []
            elements.reserveCapacity(array.count)
            for element in array {
                elements.append(try fromPropertyList(element, depth: depth + 1, maximumDepth: maximumDepth))
            }
            return .array(elements)
        }
        if let dictionary = object as? [AnyHashable: Any] {
            var members: [String: ProfileValue] = [:]
            for (key, element) in dictionary {
                guard let name = key.base as? String else {
                    throw ProfileError(.malformedProfile, "a dictionary key is not a string")
                }
                members[name] = try fromPropertyList(element, depth: depth + 1, maximumDepth: maximumDepth)
            }
            return .dictionary(members)
        }
        throw ProfileError(.malformedProfile, "the property list holds a value of an unknown type")
    }
}

extension NSNumber {
    /// An integer when the number is one (`<integer>`), else a real.
    fileprivate var profileValue: ProfileValue {
        switch String(cString: objCType) {
        case "c", "C", "B": return .bool(boolValue)
        case "d", "f": return .real(doubleValue)
        default: return .integer(int64Value)
        }
    }
}
