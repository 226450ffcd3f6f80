import SSOKitCore
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    struct Vector: Sendable, CustomStringConvertible {
        let bytes: [UInt8]
        let encoded: String
        var description: String { "\(bytes) ↔ \"\(encoded)\"" }

        init(_ text: String, _ encoded: String) {
            self.bytes = Array(text.utf8)
            self.encoded = encoded
        }

        init(bytes: [UInt8], _ encoded: String) {
            self.bytes = bytes
            self.encoded = encoded
        }
    }

    /// RFC 4648 §10 with the padding removed, plus inputs whose standard encoding holds `+` and `/`, which the URL
    /// alphabet (§5) writes as `-` and `_`.
    static let vectors: [Vector] = [
        Vector("", ""),
        Vector("f", "Zg"),
        Vector("fo", "Zm8"),
        Vector("foo", "Zm9v"),
        Vector("foob", "Zm9vYg"),
        Vector("fooba", "Zm9vYmE"),
        Vector("foobar", "Zm9vYmFy"),
        Vector(bytes: [0xFB, 0xFF], "-_8"),
        Vector(bytes: [0xFB, 0xFF, 0xBF], "-_-_"),
        Vector(bytes: [0xFF, 0xEF], "_-8"),
        // RFC 4648 §9's examples.
        Vector(bytes: [0x14, 0xFB, 0x9C, 0x03, 0xD9, 0x7E], "FPucA9l-"),
        Vector(bytes: [0x14, 0xFB, 0x9C, 0x03, 0xD9], "FPucA9k"),
        Vector(bytes: [0x14, 0xFB, 0x9C, 0x03], "FPucAw"),
    ]

    @Test("encodes the RFC 4648 test vectors", arguments: vectors)
    func encodesVector(_ vector: Vector) {
        #expect(Base64URL.encode(vector.bytes) == vector.encoded)
    }

    @Test("decodes the RFC 4648 test vectors", arguments: vectors)
    func decodesVector(_ vector: Vector) {
        #expect(Base64URL.decode(vector.encoded) == vector.bytes)
    }

    @Test("every byte value survives a round trip")
    func allByteValues() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }

    @Test("random byte strings of length 0...100 round-trip", arguments: 0...100)
    func roundTrip(length: Int) throws {
        var generator = SplitMix64(seed: UInt64(length) &* 0x9E37_79B9 &+ 1)
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let encoded = Base64URL.encode(bytes)
        #expect(encoded.utf8.count == (length * 4 + 2) / 3)
        #expect(!encoded.contains("="))
        #expect(encoded.utf8.allSatisfy(Self.isURLAlphabet))
        let decoded = try #require(Base64URL.decode(encoded))
        #expect(decoded == bytes)
    }

    @Test("a foreign symbol at any position is refused, whichever loop reads it", arguments: 1...30)
    func foreignSymbolAnywhere(length: Int) throws {
        let valid = Base64URL.encode((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        #expect(try #require(Base64URL.decode(valid)).count == length)
        for position in 0..<valid.utf8.count {
            for foreign: Character in ["=", "+", "/", " ", "\u{80}", "\u{0}"] {
                var symbols = Array(valid)
                symbols[position] = foreign
                #expect(Base64URL.decode(String(symbols)) == nil, "\(foreign) at \(position) of \(valid)")
            }
        }
    }

    @Test(
        "rejects non-canonical or foreign input",
        arguments: [
            "Zg==",  // padding
            "Zg=",
            "Zm9vYg==",
            "Zm9v=",
            "====",
            "Zm9v+A",  // standard-alphabet characters
            "Zm9v/A",
            "+/8",
            "Zm 9v",  // whitespace
            " Zm9v",
            "Zm9v ",
            "Zm9v\n",
            "Zm9v\r\nYg",
            "Zm9\tv",
            "Z",  // length % 4 == 1
            "Zm9vY",
            "Zm9vYmFyZ",
            "Zh",  // non-zero trailing bits (canonical: "Zg")
            "Zm9",  // non-zero trailing bits (canonical: "Zm8")
            "Zm-",
            "Zm9v.g",  // other characters
            "Zm9v!g",
            "Zm9vé",
        ])
    func rejects(_ input: String) {
        #expect(Base64URL.decode(input) == nil)
    }

    @Test("only one of the encodings that differ in the trailing bits is accepted")
    func trailingBitsAreCanonical() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        // One byte: two characters, the last 4 bits of the second must be zero.
        let oneByte = alphabet.filter { Base64URL.decode("Z" + String($0)) != nil }
        #expect(oneByte == ["A", "Q", "g", "w"])
        // Two bytes: three characters, the last 2 bits of the third must be zero.
        let twoBytes = alphabet.filter { Base64URL.decode("Zm" + String($0)) != nil }
        #expect(twoBytes.count == 16)
        #expect(twoBytes.contains("8"))
        #expect(!twoBytes.contains("9"))
    }

    @Test("the raw-buffer decoder agrees with the string decoder")
    func rawBufferDecoder() {
        for input in ["", "Zm9vYmFy", "Zm9vYg", "Zg==", "Zh", "-_-_"] {
            let viaBuffer = Array(input.utf8).withUnsafeBytes { Base64URL.decode($0) }
            #expect(viaBuffer == Base64URL.decode(input), "\(input)")
        }
    }

    private static func isURLAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// A small seeded generator so the "random" round trips are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
