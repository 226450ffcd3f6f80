/// The native answer's JSON body written straight into bytes: the hot path of every `refresh` from the cache, where
/// a general JSON writer costs more than the cache hit itself. Strings are escaped as ``SSOKitOIDC/JSONValue`` does
/// (`"`, `\`, control characters, and `<` `>` as `\u003c` `\u003e`).
struct TokenJSON {
    private(set) var bytes: [UInt8] = []
    private var first = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Continues an object whose members so far are `prefix` (from ``bytes`` of another writer).
    init(continuing prefix: [UInt8]) {
        bytes.reserveCapacity(prefix.count + 32)
        bytes.append(contentsOf: prefix)
        first = prefix.count <= 1
    }

    /// Appends `"name":"value"`.
    mutating func string(_ name: StaticString, _ value: String) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            if !utf8.contains(where: Self.needsEscape) {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 { escape(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `"name":number`, the number already written in decimal.
    mutating func number(_ name: StaticString, _ digits: String) {
        key(name)
        bytes.append(contentsOf: digits.utf8)
    }

    /// The finished object.
    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">")
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: Array(#"\""#.utf8))
        case UInt8(ascii: "\\"): bytes.append(contentsOf: Array(#"\\"#.utf8))
        case UInt8(ascii: "\n"): bytes.append(contentsOf: Array(#"\n"#.utf8))
        case UInt8(ascii: "\r"): bytes.append(contentsOf: Array(#"\r"#.utf8))
        case UInt8(ascii: "\t"): bytes.append(contentsOf: Array(#"\t"#.utf8))
        case let control where Self.needsEscape(control):
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: Array(#"\u00"#.utf8))
            bytes.append(hex[Int(control >> 4)])
            bytes.append(hex[Int(control & 0x0F)])
        default: bytes.append(byte)
        }
    }
}
