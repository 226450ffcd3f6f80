/// SSOKit's one base64 decoder, strict in the same ways whatever the flavour: only the chosen alphabet, padding
/// exactly as the flavour wants it, and no non-zero trailing bits, so that a byte string has one accepted encoding.
/// ``Base64URL`` (JOSE, PKCE) and SAML's bindings decode through it with their ``Options``.
package enum StrictBase64 {
    /// A flavour of base64: its alphabet, its padding and whether ASCII whitespace is skipped.
    package struct Options: Sendable {
        fileprivate let table: [UInt8]
        fileprivate let padded: Bool

        /// RFC 4648 §5 without padding or whitespace, as JOSE and PKCE use it.
        package static let base64URL = Options(
            alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", padded: false,
            skipsWhitespace: false)
        /// RFC 4648 §4 with padding, ASCII whitespace (line breaks) skipped, as the SAML bindings carry it.
        package static let lineWrappedPadded = Options(
            alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", padded: true,
            skipsWhitespace: true)

        private init(alphabet: String, padded: Bool, skipsWhitespace: Bool) {
            var table = [UInt8](repeating: StrictBase64.invalid, count: 256)
            for (index, byte) in alphabet.utf8.enumerated() { table[Int(byte)] = UInt8(index) }
            if skipsWhitespace {
                for byte in [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")] {
                    table[Int(byte)] = StrictBase64.whitespace
                }
            }
            if padded { table[Int(UInt8(ascii: "="))] = StrictBase64.pad }
            self.table = table
            self.padded = padded
        }
    }

    private static let whitespace: UInt8 = 0xFE
    private static let pad: UInt8 = 0xFD
    private static let invalid: UInt8 = 0xFF

    /// The bytes that `input` encodes, or nil when it is not strictly `options`' base64.
    ///
    /// Whole groups of four symbols are decoded in a tight loop; the first group holding anything else (padding,
    /// whitespace, the last partial group) hands the rest to a byte-at-a-time loop.
    package static func decode(_ input: UnsafeRawBufferPointer, options: Options) -> [UInt8]? {
        let count = input.count
        var ok = true
        let output = options.table.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: count / 4 * 3 + 3) { buffer, initialized in
                var index = 0
                var out = 0
                while index + 4 <= count {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])]
                    let d = table[Int(input[index + 3])]
                    if (a | b | c | d) & 0xC0 != 0 { break }
                    buffer[out] = a << 2 | b >> 4
                    buffer[out + 1] = (b & 0x0F) << 4 | c >> 2
                    buffer[out + 2] = (c & 0x03) << 6 | d
                    index += 4
                    out += 3
                }
                var quantum: UInt32 = 0
                var filled = 0
                var padding = 0
                while ok && index < count {
                    let value = table[Int(input[index])]
                    index += 1
                    if value < 64 {
                        guard padding == 0 else {
                            ok = false
                            break
                        }
                        quantum = quantum << 6 | UInt32(value)
                        filled += 1
                        if filled == 4 {
                            buffer[out] = UInt8(truncatingIfNeeded: quantum >> 16)
                            buffer[out + 1] = UInt8(truncatingIfNeeded: quantum >> 8)
                            buffer[out + 2] = UInt8(truncatingIfNeeded: quantum)
                            out += 3
                            quantum = 0
                            filled = 0
                        }
                    } else if value == whitespace {
                        continue
                    } else if value == pad {
                        padding += 1
                        ok = padding <= 2 && filled >= 2 && filled + padding <= 4
                    } else {
                        ok = false
                    }
                }
                switch filled {
                case _ where !ok: break
                case 0: ok = padding == 0
                case 2:
                    ok = quantum & 0x0F == 0 && padding == (options.padded ? 2 : 0)
                    buffer[out] = UInt8(truncatingIfNeeded: quantum >> 4)
                    out += 1
                case 3:
                    ok = quantum & 0x03 == 0 && padding == (options.padded ? 1 : 0)
                    buffer[out] = UInt8(truncatingIfNeeded: quantum >> 10)
                    buffer[out + 1] = UInt8(truncatingIfNeeded: quantum >> 2)
                    out += 2
                default: ok = false
                }
                initialized = ok ? out : 0
            }
        }
        return ok ? output : nil
    }
}
