/// Base64url encoding without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Decoding is strict: only the URL-safe alphabet, no padding, no whitespace, and no non-zero trailing bits,
/// so that every byte string has exactly one accepted encoding.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as base64url without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = input.count - index
        if remaining == 1 {
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
        } else if remaining == 2 {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a base64url string without padding; `nil` when the input is not canonical base64url.
    public static func decode(_ string: String) -> [UInt8]? {
        var string = string
        return string.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// Decodes base64url bytes without padding; `nil` when the input is not canonical base64url.
    public static func decode(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        let count = input.count
        if count % 4 == 1 { return nil }
        var output = [UInt8]()
        output.reserveCapacity(count * 3 / 4)
        var ok = true
        decodeTable.withUnsafeBufferPointer { table in
            var index = 0
            while index + 4 <= count {
                let a = table[Int(input[index])]
                let b = table[Int(input[index + 1])]
                let c = table[Int(input[index + 2])]
                let d = table[Int(input[index + 3])]
                if (a | b | c | d) & 0xC0 != 0 {
                    ok = false
                    return
                }
                let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                output.append(UInt8(truncatingIfNeeded: chunk >> 16))
                output.append(UInt8(truncatingIfNeeded: chunk >> 8))
                output.append(UInt8(truncatingIfNeeded: chunk))
                index += 4
            }
            let remaining = count - index
            if remaining == 2 {
                let a = table[Int(input[index])]
                let b = table[Int(input[index + 1])]
                if (a | b) & 0xC0 != 0 || b & 0x0F != 0 {
                    ok = false
                    return
                }
                output.append(a << 2 | b >> 4)
            } else if remaining == 3 {
                let a = table[Int(input[index])]
                let b = table[Int(input[index + 1])]
                let c = table[Int(input[index + 2])]
                if (a | b | c) & 0xC0 != 0 || c & 0x03 != 0 {
                    ok = false
                    return
                }
                output.append(a << 2 | b >> 4)
                output.append((b & 0x0F) << 4 | c >> 2)
            }
        }
        return ok ? output : nil
    }
}
