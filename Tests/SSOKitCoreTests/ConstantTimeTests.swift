import SSOKitCore
import Testing

@Suite("ConstantTime")
struct ConstantTimeTests {
    @Test("equal byte sequences compare equal")
    func equalBytes() {
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals([0x00, 0xFF, 0x10] as [UInt8], [0x00, 0xFF, 0x10] as [UInt8]))
        let long = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(ConstantTime.equals(long, long))
    }

    @Test("a difference at any position is detected", arguments: 0..<32)
    func differenceAtPosition(_ position: Int) {
        let base = (0..<32).map { UInt8($0) }
        var other = base
        other[position] ^= 0x01
        #expect(!ConstantTime.equals(base, other))
        other[position] ^= 0x81
        #expect(!ConstantTime.equals(base, other))
    }

    @Test("sequences of different lengths are never equal")
    func differentLengths() {
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([UInt8](), [0] as [UInt8]))
    }

    @Test("raw buffers compare by content and length")
    func rawBuffers() {
        let array: [UInt8] = [1, 2, 3, 4]
        let same: [UInt8] = [2, 3, 4]
        let equal = array.withUnsafeBytes { whole in
            same.withUnsafeBytes { ConstantTime.equals(UnsafeRawBufferPointer(rebasing: whole[1...]), $0) }
        }
        #expect(equal)
        let shorter = array.withUnsafeBytes { whole in
            same.withUnsafeBytes { ConstantTime.equals(UnsafeRawBufferPointer(rebasing: whole[2...]), $0) }
        }
        #expect(!shorter)
    }

    @Test(
        "string comparison is over UTF-8 bytes",
        arguments: [
            ("state-123", "state-123", true),
            ("", "", true),
            ("é", "é", true),
            ("state-123", "state-124", false),
            ("state", "state-123", false),
            ("State", "state", false),
            // Canonically equivalent but different bytes: not equal (byte comparison, no normalisation).
            ("\u{00E9}", "e\u{0301}", false),
        ])
    func strings(_ lhs: String, _ rhs: String, _ equal: Bool) {
        #expect(ConstantTime.equals(lhs, rhs) == equal)
        #expect(ConstantTime.equals(rhs, lhs) == equal)
    }
}
