/// Base64url encoding without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Decoding is strict: only the URL-safe alphabet, no padding, no whitespace, and no non-zero trailing bits,
/// so that every byte string has exactly one accepted encoding.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

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
        StrictBase64.decode(input, options: .base64URL)
    }

    /// Room enough for what `count` base64url symbols decode to.
    package static func decodedCapacity(_ count: Int) -> Int {
        StrictBase64.decodedCapacity(count)
    }

    /// Decodes base64url bytes into the front of `buffer` (at least ``decodedCapacity(_:)`` bytes); the number of
    /// bytes decoded, or `nil` when the input is not canonical base64url. As with
    /// `StrictBase64.decode(_:options:into:)`, all of the first ``decodedCapacity(_:)`` bytes are scratch.
    package static func decode(_ input: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int?
    {
        StrictBase64.decode(input, options: .base64URL, into: buffer)
    }
}
