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

    /// The key of `name`, or ``none`` when it is empty, longer than 16 bytes or not ASCII.
    package init(_ name: String) {
        var name = name
        self = name.withUTF8 { JSONNameKey(UnsafeRawBufferPointer($0)) }
    }

    /// The key of raw name bytes (the parser's, read without escapes); ``none`` unless 1 to 16 ASCII bytes.
    init(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, bytes.count <= 16 else {
            self = .none
            return
        }
        // The bytes in memory order: the same name always gives the same key on one machine, all a key needs.
        var bits: UInt128 = 0
        withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: bytes) }
        let highBits: UInt128 = 0x8080_8080_8080_8080_8080_8080_8080_8080
        self.bits = bits & highBits == 0 ? bits : 0
    }
}
