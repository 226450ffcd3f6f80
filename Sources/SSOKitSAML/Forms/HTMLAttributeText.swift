/// Escaping for, and character-reference decoding of, HTML attribute values.
enum HTMLAttributeText {
    /// `value` with `&`, `<`, `>`, `"` and `'` replaced by character references, safe inside a quoted attribute.
    static func escape(_ value: String) -> String { XMLEscaping.escape(value) }

    /// Decodes a raw attribute value, replacing numeric references (`&#NN;`, `&#xHH;`, the `;` optional) and the
    /// named references in ``named``. `&amp`, `&lt`, `&gt` and `&quot` without `;` are decoded too unless an
    /// alphanumeric or `=` follows, as HTML does in attributes; any other `&` stays as it is. Zero, surrogate and
    /// out-of-range code points become U+FFFD; bytes that are not UTF-8 are replaced the same way.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "&")) else {
            return String(decoding: raw, as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == UInt8(ascii: "&"), let (scalar, next) = reference(in: raw, after: index) {
                UTF8.encode(scalar) { decoded.append($0) }
                index = next
            } else {
                decoded.append(raw[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Named references decoded when followed by `;`: the XML five, `nbsp`, and the punctuation that shows up
    /// in URLs (and in attempts to hide a `javascript:` scheme).
    static let named: [String: Unicode.Scalar] = [
        "amp": "&", "AMP": "&", "lt": "<", "LT": "<", "gt": ">", "GT": ">", "quot": "\"", "QUOT": "\"",
        "apos": "'", "nbsp": "\u{A0}", "colon": ":", "sol": "/", "bsol": "\\", "quest": "?", "num": "#",
        "equals": "=", "plus": "+", "percnt": "%", "period": ".", "comma": ",", "semi": ";", "excl": "!",
        "commat": "@", "lowbar": "_", "dollar": "$", "lpar": "(", "rpar": ")", "ast": "*", "Tab": "\t",
        "NewLine": "\n",
    ]

    /// Named references HTML also decodes without the `;`.
    private static let legacy: Set<String> = ["amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT"]

    /// Longest name looked up; longer runs of letters are no reference.
    private static let longestName = 8

    /// The character referenced at `raw[ampersand]` and the index after the reference, or `nil` when there is no
    /// reference there.
    private static func reference(in raw: ArraySlice<UInt8>, after ampersand: Int) -> (Unicode.Scalar, Int)? {
        var index = ampersand + 1
        guard index < raw.endIndex else { return nil }
        guard raw[index] == UInt8(ascii: "#") else {
            return namedReference(in: raw, at: index)
        }
        index += 1
        var radix: UInt32 = 10
        if index < raw.endIndex, raw[index] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        var digits = 0
        while index < raw.endIndex, let digit = digitValue(raw[index], radix: radix) {
            value = min(value * radix + digit, 0x11_0000)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < raw.endIndex, raw[index] == UInt8(ascii: ";") {
            index += 1
        }
        let scalar = value == 0 ? nil : Unicode.Scalar(value)
        return (scalar ?? "\u{FFFD}", index)
    }

    /// The named reference whose name starts at `start`.
    private static func namedReference(in raw: ArraySlice<UInt8>, at start: Int) -> (Unicode.Scalar, Int)? {
        var end = start
        while end < raw.endIndex, end - start <= longestName, AutoPostValidation.isASCIIAlphanumeric(raw[end]) {
            end += 1
        }
        guard end > start, end - start <= longestName else { return nil }
        let name = String(decoding: raw[start..<end], as: UTF8.self)
        if end < raw.endIndex, raw[end] == UInt8(ascii: ";"), let scalar = named[name] {
            return (scalar, end + 1)
        }
        if legacy.contains(name), end == raw.endIndex || raw[end] != UInt8(ascii: "="), let scalar = named[name] {
            return (scalar, end)
        }
        return nil
    }

    /// The value of an ASCII digit in `radix` (10 or 16).
    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
            return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
            return UInt32(byte - UInt8(ascii: "A") + 10)
        default:
            return nil
        }
    }
}
