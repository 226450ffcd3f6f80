import SSOKitCore

/// Request parameters from a query string or a form body (`application/x-www-form-urlencoded`). A parameter may
/// appear once (RFC 6749 §3.1); one sent without a value counts as absent.
struct Parameters: Sendable {
    private var values: [String: String] = [:]

    /// No parameters.
    init() {}

    /// Decodes `encoded`; `invalid_request` on a malformed escape, invalid UTF-8 or a repeated name.
    init(encoded: some StringProtocol) throws(DevIdPError) {
        guard let pairs = FormURLEncoding.decode(encoded) else {
            throw DevIdPError(.invalidRequest, "the parameters are not valid URL encoding")
        }
        for (name, value) in pairs {
            guard values[name] == nil else {
                throw DevIdPError(.invalidRequest, "the parameter \(Self.printable(name)) repeats")
            }
            if !value.isEmpty { values[name] = value }
        }
    }

    /// The value of `name`, if present.
    subscript(name: String) -> String? { values[name] }

    /// The value of `name`, or `invalid_request`.
    func required(_ name: String) throws(DevIdPError) -> String {
        guard let value = values[name] else { throw DevIdPError(.invalidRequest, "the parameter \(name) is missing") }
        return value
    }

    /// A parameter name as it may appear in an error: short and plain, else elided.
    private static func printable(_ name: String) -> String {
        let plain =
            name.utf8.count <= 40
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && $0.properties.isAlphabetic
                    || $0 == "_"
            }
        return plain ? name : "(a name)"
    }
}
