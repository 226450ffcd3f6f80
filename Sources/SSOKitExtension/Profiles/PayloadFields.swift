/// The problems found while one profile is read, in order.
final class ProblemLog {
    private(set) var problems: [ProfileProblem] = []

    func append(_ problem: ProfileProblem) { problems.append(problem) }
}

/// Typed reading of one dictionary of a payload (the payload itself, or its ExtensionData): each accessor returns
/// the value when it is usable, and otherwise logs one problem naming the payload and the key and returns nil.
struct PayloadFields {
    let values: [String: ProfileValue]
    /// The payload's name in problems.
    let payload: String
    /// `""` for payload keys, `ExtensionData.` for ExtensionData members.
    let keyPrefix: String
    let log: ProblemLog

    func problem(_ key: String, _ code: ProfileProblem.Code, _ message: String) {
        log.append(ProfileProblem(payload: payload, key: keyPrefix + key, code: code, message: message))
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    /// A non-empty string.
    func string(_ key: String, required: Bool = false) -> String? {
        guard let value = present(key, required: required) else { return nil }
        guard let text = value.stringValue else {
            problem(key, .wrongType, "\(key) must be a string, not \(value.typeName)")
            return nil
        }
        guard !text.isEmpty else {
            problem(key, .invalidValue, "\(key) must not be empty")
            return nil
        }
        return text
    }

    /// An array of non-empty strings; with `separator`, a string holding several values separated by it (or by
    /// white space) is accepted too. A required list must not be empty.
    func strings(_ key: String, required: Bool = false, separator: Character? = nil) -> [String]? {
        guard let value = present(key, required: required) else { return nil }
        let items: [String]
        if let text = value.stringValue, let separator {
            items = text.split { $0 == separator || $0.isWhitespace }.map(String.init)
        } else if let elements = value.arrayValue {
            var texts: [String] = []
            for element in elements {
                guard let text = element.stringValue, !text.isEmpty else {
                    problem(key, .wrongType, "every element of \(key) must be a non-empty string")
                    return nil
                }
                texts.append(text)
            }
            items = texts
        } else {
            let expected = separator == nil ? "an array of strings" : "an array of strings or a string"
            problem(key, .wrongType, "\(key) must be \(expected), not \(value.typeName)")
            return nil
        }
        if required && items.isEmpty {
            problem(key, .missingKey, "\(key) must list at least one entry")
            return nil
        }
        return items
    }

    func bool(_ key: String) -> Bool? {
        guard let value = present(key, required: false) else { return nil }
        guard let flag = value.boolValue else {
            problem(key, .wrongType, "\(key) must be a boolean, not \(value.typeName)")
            return nil
        }
        return flag
    }

    func dictionary(_ key: String, required: Bool = false) -> [String: ProfileValue]? {
        guard let value = present(key, required: required) else { return nil }
        guard let members = value.dictionaryValue else {
            problem(key, .wrongType, "\(key) must be a dictionary, not \(value.typeName)")
            return nil
        }
        return members
    }

    /// One of an enumeration's raw values.
    func oneOf<Value: RawRepresentable & CaseIterable>(_ key: String, required: Bool = false) -> Value?
    where Value.RawValue == String {
        guard let text = string(key, required: required) else { return nil }
        guard let value = Value(rawValue: text) else {
            let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
            problem(key, .invalidValue, "\(key) is \"\(text)\"; it must be one of \(allowed)")
            return nil
        }
        return value
    }

    /// Fields for a nested dictionary (ExtensionData), logging to the same list.
    func nested(_ values: [String: ProfileValue], keyPrefix: String) -> PayloadFields {
        PayloadFields(values: values, payload: payload, keyPrefix: keyPrefix, log: log)
    }

    private func present(_ key: String, required: Bool) -> ProfileValue? {
        guard let value = values[key] else {
            if required { problem(key, .missingKey, "\(key) is required") }
            return nil
        }
        return value
    }
}
