/// SSOKit's one base64 decoder, strict in the same ways whatever the flavour: only the chosen alphabet, padding
/// exactly as the flavour wants it, and no non-zero trailing bits, so that a byte string has one accepted encoding.
/// ``Base64URL`` (JOSE, PKCE) and SAML's bindings decode through it with their ``Options``.
package enum StrictBase64 {
    /// A flavour of base64: its alphabet, its padding and whether ASCII whitespace is skipped.
    package struct Options: Sendable {
        fileprivate let table: [UInt8]
        /// `table` four times over, each value already shifted to its place in a 24-bit group (positions 0 to 3 at
        /// offsets 0, 256, 512, 768); anything that is not a symbol is 0xFF00_0000, so one test on the top byte of
        /// the four values or-ed together finds it.
        fileprivate let placed: [UInt32]
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
            var placed = [UInt32](repeating: 0xFF00_0000, count: 4 * 256)
            for position in 0..<4 {
                for byte in 0..<256 where table[byte] < 64 {
                    placed[position * 256 + byte] = UInt32(table[byte]) << (18 - 6 * position)
                }
            }
            self.placed = placed
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
        var ok = true
        let output = [UInt8](unsafeUninitializedCapacity: decodedCapacity(input.count)) { buffer, initialized in
            let written = decode(input, options: options, into: buffer)
            ok = written != nil
            initialized = written ?? 0
        }
        return ok ? output : nil
    }

    /// Room enough for the bytes `count` symbols can decode to: what ``decode(_:options:into:)`` needs.
    package static func decodedCapacity(_ count: Int) -> Int {
        count / 4 * 3 + 3
    }

    /// Decodes `input` into the front of `buffer` (at least ``decodedCapacity(_:)`` bytes) and returns how many bytes
    /// it decoded, or nil when `input` is not strictly `options`' base64 (the buffer's contents are then unspecified).
    /// Lets a caller decode several pieces into one allocation, each into the room after the one before: the first
    /// ``decodedCapacity(_:)`` bytes of `buffer` are scratch, and bytes past the count returned may be overwritten
    /// (the fast loop stores whole words), so nothing a caller keeps may sit there.
    package static func decode(
        _ input: UnsafeRawBufferPointer, options: Options, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int? {
        let count = input.count
        guard buffer.count >= decodedCapacity(count) else { return nil }
        var ok = true
        var index = 0
        var out = 0
        if let output = UnsafeMutableRawPointer(buffer.baseAddress) {
            options.placed.withUnsafeBufferPointer { placed in
                // Two groups' six bytes go out as one 8-byte store, high byte first (one group's three as a 4-byte
                // store); the store's spare bytes land in room that the next group (or the byte-at-a-time loop)
                // overwrites, and ``decodedCapacity(_:)``'s three spare bytes keep the last store inside the buffer.
                while index + 8 <= count {
                    let first =
                        placed[Int(input[index])] | placed[256 + Int(input[index + 1])]
                        | placed[512 + Int(input[index + 2])] | placed[768 + Int(input[index + 3])]
                    let second =
                        placed[Int(input[index + 4])] | placed[256 + Int(input[index + 5])]
                        | placed[512 + Int(input[index + 6])] | placed[768 + Int(input[index + 7])]
                    if (first | second) >> 24 != 0 { break }
                    let six = UInt64(first) << 40 | UInt64(second) << 16
                    output.storeBytes(of: six.bigEndian, toByteOffset: out, as: UInt64.self)
                    index += 8
                    out += 6
                }
                while index + 4 <= count {
                    let group =
                        placed[Int(input[index])] | placed[256 + Int(input[index + 1])]
                        | placed[512 + Int(input[index + 2])] | placed[768 + Int(input[index + 3])]
                    if group >> 24 != 0 { break }
                    output.storeBytes(of: (group << 8).bigEndian, toByteOffset: out, as: UInt32.self)
                    index += 4
                    out += 3
                }
            }
        }
        let written = options.table.withUnsafeBufferPointer { table -> Int in
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
            return out
        }
        return ok ? written : nil
    }
}
