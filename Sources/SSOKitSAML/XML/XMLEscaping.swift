/// Escaping for the XML that SSOKitSAML writes (requests, metadata) and for HTML attribute values: the five
/// markup characters as character references, which both languages read the same way.
enum XMLEscaping {
    /// Escapes a value for a double-quoted attribute or for text content.
    static func escape(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\r": result += "&#13;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            default:
                // XML 1.0 forbids most C0 controls even as references; drop them.
                if scalar.value < 0x20 { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
