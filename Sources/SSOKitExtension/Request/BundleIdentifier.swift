/// The shape of a calling app's bundle identifier: 1 to 255 ASCII letters, digits, `.` and `-` (and `_`, which
/// some platforms allow). Keys built from it can never take the names the adapter reserves for itself, which start
/// with `#`.
public enum BundleIdentifier {
    /// Longest identifier accepted.
    public static let maximumLength = 255

    /// Whether `text` is a well-formed bundle identifier.
    public static func isValid(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy(isAllowed)
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
