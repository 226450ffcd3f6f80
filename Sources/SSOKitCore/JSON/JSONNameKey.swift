/// A short ASCII member name packed into an integer (its bytes, first byte lowest), so that names are matched by one
/// integer comparison instead of a `String` comparison. Only names of 1 to 16 ASCII bytes have a key; any other
/// (longer, non-ASCII, or written with escapes by the parser's choice) has ``none`` and is compared as a `String`.
package struct JSONNameKey: Hashable, Sendable {
    /// The packed bytes; 0 for ``none``.
    package let bits: UInt128

    /// No key: compare the names themselves.
    package static let none = JSONNameKey(bits: 0)

    private init(bits: UInt128) {
        self.bits = bits
    }

    /// The key of `name`, or ``none`` when it is empty, longer than 16 bytes, not ASCII or holds a NUL.
    package init(_ name: String) {
        guard !name.utf8.contains(0) else {
            self = .none
            return
        }
        var name = name
        self = name.withUTF8 { JSONNameKey(UnsafeRawBufferPointer($0)) }
    }

    /// The name this key packs; empty for ``none``. A key's bytes are never 0 (the parser refuses a raw NUL in a
    /// string, and a `String` holding one gets no key), so the name ends at the first zero byte.
    package var name: String {
        var rest = bits
        var count = 0
        while rest != 0 {
            count += 1
            rest >>= 8
        }
        // Written straight into the String's storage: no allocation at all for up to 15 bytes (a small string).
        return String(unsafeUninitializedCapacity: count) { buffer in
            var packed = bits
            for index in 0..<count {
                buffer[index] = UInt8(truncatingIfNeeded: packed)
                packed >>= 8
            }
            return count
        }
    }

    /// The key of a name of 1 to 16 ASCII bytes already packed, bytes 0 to 7 in `low` and 8 to 15 in `high`, byte i at
    /// bits 8i to 8i + 7 of its half (the parser's, which packs a name as it scans it).
    init(low: UInt64, high: UInt64) {
        bits = UInt128(high) << 64 | UInt128(low)
    }

    /// The key of raw name bytes (a `String`'s, checked for NUL by the `String` initializer); ``none`` unless 1 to 16
    /// ASCII bytes.
    init(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, bytes.count <= 16 else {
            self = .none
            return
        }
        // Byte i at bits 8i to 8i + 7, in two 64-bit halves (cheaper than shifting a UInt128 per byte).
        let count = bytes.count
        var low: UInt64 = 0
        var high: UInt64 = 0
        var index = 0
        var shift: UInt64 = 0
        while index < count && index < 8 {
            low |= UInt64(bytes[index]) &<< shift
            shift &+= 8
            index &+= 1
        }
        shift = 0
        while index < count {
            high |= UInt64(bytes[index]) &<< shift
            shift &+= 8
            index &+= 1
        }
        let asciiOnly = (low | high) & 0x8080_8080_8080_8080 == 0
        self = asciiOnly ? JSONNameKey(low: low, high: high) : .none
    }
}
