import Foundation

/// Comparisons of text borrowed from a libxml2 tree with Swift strings, without building a String when the bytes
/// settle the answer.
enum XMLText {
    /// Whether `bytes` (UTF-8 from the tree) equal `expected` as `String ==` decides: equal bytes are equal strings,
    /// and two ASCII texts with different bytes are different strings. Anything else (non-ASCII text, which Unicode
    /// canonical equivalence may equate) is decided by `String ==` itself.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ expected: String) -> Bool {
        var expected = expected
        let settled: Bool? = expected.withUTF8 { wanted in
            if bytes.count == wanted.count, bytes.count == 0 || sameBytes(bytes, wanted) {
                return true
            }
            if isASCII(bytes), isASCII(wanted) { return false }
            return nil
        }
        if let settled { return settled }
        return String(decoding: bytes, as: UTF8.self) == expected
    }

    private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let left = a.baseAddress, let right = b.baseAddress else { return false }
        return memcmp(left, right, a.count) == 0
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }
}
