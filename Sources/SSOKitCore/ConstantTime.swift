/// Comparisons whose running time does not depend on where two secrets differ.
public enum ConstantTime {
    /// Compares two byte buffers in time that depends only on their lengths.
    public static func equals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    /// Compares two byte arrays in time that depends only on their lengths.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.withUnsafeBytes { lhs in rhs.withUnsafeBytes { rhs in equals(lhs, rhs) } }
    }

    /// Compares the UTF-8 bytes of two strings in time that depends only on their lengths.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { lhs in
            rhs.withUTF8 { rhs in equals(UnsafeRawBufferPointer(lhs), UnsafeRawBufferPointer(rhs)) }
        }
    }
}
