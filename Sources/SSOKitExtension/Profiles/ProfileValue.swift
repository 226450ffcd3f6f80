import Foundation

/// A value of a configuration profile, as a property list holds it: what `ExtensionData` and unknown keys keep.
public enum ProfileValue: Sendable, Hashable {
    /// `<string>`, or a JSON string.
    case string(String)
    /// `<integer>`, or a JSON number without fraction.
    case integer(Int64)
    /// `<real>`, or any other JSON number.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`.
    case date(Date)
    /// `<data>`.
    case data([UInt8])
    /// `<array>`.
    case array([ProfileValue])
    /// `<dict>`.
    case dictionary([String: ProfileValue])

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [ProfileValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is a dictionary.
    public var dictionaryValue: [String: ProfileValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The property-list name of the value's type, for messages.
    var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}
