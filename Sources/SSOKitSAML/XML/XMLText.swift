/// Comparisons of text borrowed from a libxml2 tree with Swift strings, without building a String when the bytes
/// settle the answer.
enum XMLText {
    /// Whether `bytes` (UTF-8 from the tree) equal `expected` as `String ==` decides: equal bytes are equal strings,
    /// and two ASCII texts with different bytes are different strings. Anything else (non-ASCII text, which Unicode
    /// canonical equivalence may equate) is decided by `String ==` itself.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ expected: String) -> Bool {
        var expected = expected
        let settled: Bool? = expected.withUTF8 { wanted in
            if bytes.count == wanted.count, bytes.elementsEqual(wanted) { return true }
            if isASCII(bytes), isASCII(wanted) { return false }
            return nil
        }
        if let settled { return settled }
        return String(decoding: bytes, as: UTF8.self) == expected
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }
}
