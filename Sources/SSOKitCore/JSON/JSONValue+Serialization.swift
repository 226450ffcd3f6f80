extension JSONValue {
    /// Compact JSON text with object members sorted by name, so output is stable.
    ///
    /// Strings escape `"`, `\`, control characters, `<` and `>` (so the text can sit in an HTML page); everything
    /// else is copied as UTF-8. The text is built as bytes: `ssokit serve` writes one per answer and log line.
    public var jsonText: String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): output.append(contentsOf: String(value).utf8)
        case .number(let value):
            if value.rounded(.towardZero) == value && abs(value) < 1e15 {
                output.append(contentsOf: String(Int64(value)).utf8)
            } else {
                output.append(contentsOf: "\(value)".utf8)
            }
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (offset, name) in members.keys.sorted().enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(name, to: &output)
                output.append(UInt8(ascii: ":"))
                members[name]?.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `value` as a JSON string: runs that need no escape are copied at once.
    private static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard
                    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                        || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                appendEscape(of: byte, to: &output)
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case UInt8(ascii: "\n"): output.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): output.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): output.append(contentsOf: #"\t"#.utf8)
        case UInt8(ascii: "<"): output.append(contentsOf: #"\u003c"#.utf8)
        case UInt8(ascii: ">"): output.append(contentsOf: #"\u003e"#.utf8)
        default:
            let digits = Array("0123456789abcdef".utf8)
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
    }
}
