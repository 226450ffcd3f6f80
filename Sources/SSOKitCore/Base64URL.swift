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
        let length = input.count / 3 * 4 + [0, 2, 3][input.count % 3]
        return alphabet.withUnsafeBufferPointer { alphabet in
            input.withUnsafeBufferPointer { input in
                String(unsafeUninitializedCapacity: length) { output in
                    var index = 0
                    var out = 0
                    while index + 3 <= input.count {
                        let chunk =
                            UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                        output[out] = alphabet[Int(chunk >> 18 & 63)]
                        output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                        output[out + 2] = alphabet[Int(chunk >> 6 & 63)]
                        output[out + 3] = alphabet[Int(chunk & 63)]
                        index += 3
                        out += 4
                    }
                    let remaining = input.count - index
                    if remaining > 0 {
                        let second = remaining == 2 ? UInt32(input[index + 1]) << 8 : 0
                        let chunk = UInt32(input[index]) << 16 | second
                        output[out] = alphabet[Int(chunk >> 18 & 63)]
                        output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                        out += 2
                        if remaining == 2 {
                            output[out] = alphabet[Int(chunk >> 6 & 63)]
                            out += 1
                        }
                    }
                    return out
                }
            }
        }
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
        let capacity = count / 4 * 3 + 2
        var ok = true
        let output = decodeTable.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var index = 0
                var out = 0
                while index + 4 <= count {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])]
                    let d = table[Int(input[index + 3])]
                    if (a | b | c | d) & 0xC0 != 0 {
                        ok = false
                        break
                    }
                    buffer[out] = a << 2 | b >> 4
                    buffer[out + 1] = (b & 0x0F) << 4 | c >> 2
                    buffer[out + 2] = (c & 0x03) << 6 | d
                    index += 4
                    out += 3
                }
                let remaining = count - index
                if ok && remaining == 2 {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    if (a | b) & 0xC0 != 0 || b & 0x0F != 0 {
                        ok = false
                    } else {
                        buffer[out] = a << 2 | b >> 4
                        out += 1
                    }
                } else if ok && remaining == 3 {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])]
                    if (a | b | c) & 0xC0 != 0 || c & 0x03 != 0 {
                        ok = false
                    } else {
                        buffer[out] = a << 2 | b >> 4
                        buffer[out + 1] = (b & 0x0F) << 4 | c >> 2
                        out += 2
                    }
                }
                initialized = ok ? out : 0
            }
        }
        return ok ? output : nil
    }
}
