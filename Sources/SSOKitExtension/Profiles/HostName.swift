/// Host names as profiles and requests compare them: ASCII case folded, IPv6 brackets and one trailing dot removed.
enum HostName {
    static func normalized(_ host: String) -> String {
        var copy = host
        let clean = copy.withUTF8 { bytes in
            bytes.first != UInt8(ascii: "[") && bytes.last != UInt8(ascii: ".")
                && !bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        }
        // The common case (a lower-case host as browsers send it) returns the string itself: no copy.
        guard !clean else { return host }
        var text = Substring(host)
        if text.hasPrefix("[") && text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if text.hasSuffix(".") { text = text.dropLast() }
        return String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether `name` (already normalized, without a leading dot) is made of DNS labels or is an IP literal:
    /// letters, digits, `-` and `_` in non-empty labels of at most 63 bytes, `:` only for IPv6.
    static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        if name.contains(":") {
            return name.utf8.allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63
                && label.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
