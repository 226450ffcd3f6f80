import SSOKitCore
import Testing

@Suite("JSONParser")
struct JSONParserTests {
    struct Valid: Sendable, CustomStringConvertible {
        let text: String
        let value: JSONValue
        var description: String { text }
        init(_ text: String, _ value: JSONValue) {
            self.text = text
            self.value = value
        }
    }

    static let validDocuments: [Valid] = [
        Valid("{}", .object([:])),
        Valid("[]", .array([])),
        Valid("null", .null),
        Valid("true", .bool(true)),
        Valid("false", .bool(false)),
        Valid("0", .integer(0)),
        Valid("-0", .integer(0)),
        Valid("42", .integer(42)),
        Valid("-17", .integer(-17)),
        Valid("1.5", .number(1.5)),
        Valid("-0.25", .number(-0.25)),
        Valid("1e3", .number(1000)),
        Valid("2E-2", .number(0.02)),
        Valid("1.0", .number(1)),
        Valid("9223372036854775807", .integer(.max)),
        Valid("-9223372036854775808", .integer(.min)),
        Valid(#""""#, .string("")),
        Valid(#""hello""#, .string("hello")),
        Valid(#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        Valid(#""\u00e9\u00C9""#, .string("éÉ")),
        Valid(#""\u0000""#, .string("\u{0}")),
        Valid(#""\ud83d\ude00""#, .string("😀")),
        Valid("\"é😀\u{7F}\"", .string("é😀\u{7F}")),
        Valid(#""a\nb é""#, .string("a\nb é")),
        Valid(
            " \t\r\n{ \"a\" : [ 1 , \"x\" , null ] }\n ", .object(["a": .array([.integer(1), .string("x"), .null])])),
        Valid(
            #"{"iss":"https://idp.example.com","aud":["a","b"],"exp":1767229200,"email_verified":true,"x":{"y":{}}}"#,
            .object([
                "iss": .string("https://idp.example.com"), "aud": .array([.string("a"), .string("b")]),
                "exp": .integer(1_767_229_200), "email_verified": .bool(true), "x": .object(["y": .object([:])]),
            ])),
        Valid(#"{"":1,"a":{"a":2}}"#, .object(["": .integer(1), "a": .object(["a": .integer(2)])])),
    ]

    @Test("parses valid documents", arguments: validDocuments)
    func valid(_ document: Valid) throws {
        #expect(try JSONParser().parse(Array(document.text.utf8)) == document.value)
    }

    @Test(
        "refuses duplicate member names, also when spelled with escapes or nested",
        arguments: [
            #"{"a":1,"a":2}"#, #"{"a":1,"a":1}"#, #"{"a":1,"b":2,"a":3}"#, #"{"a":1,"\u0061":2}"#,
            #"{"x":{"k":1,"k":null}}"#, #"[{"alg":"RS256","alg":"none"}]"#,
        ])
    func duplicateKeys(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(text.utf8)) }
    }

    @Test("nesting deeper than maximumDepth is refused", arguments: ["[", "{\"a\":"])
    func depthCap(_ opener: String) throws {
        let closer = opener == "[" ? "]" : "}"
        func nested(_ depth: Int) -> [UInt8] {
            Array((String(repeating: opener, count: depth) + "1" + String(repeating: closer, count: depth)).utf8)
        }
        let parser = JSONParser()
        #expect(parser.maximumDepth == 32)
        _ = try parser.parse(nested(32))
        #expect(throws: JSONParser.Failure.self) { try parser.parse(nested(33)) }
        #expect(throws: JSONParser.Failure.self) { try parser.parse(nested(10_000)) }

        let shallow = JSONParser(maximumDepth: 2)
        _ = try shallow.parse(nested(2))
        #expect(throws: JSONParser.Failure.self) { try shallow.parse(nested(3)) }
    }

    @Test(
        "refuses trailing content",
        arguments: ["{} x", "{}{}", "[1]]", "1 2", #""a""b""#, "nullx", "true false", "{}\u{0}", "0x10", "1,"])
    func trailingGarbage(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(text.utf8)) }
    }

    @Test(
        "refuses invalid UTF-8 in strings",
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC3, 0x22],  // truncated sequence
            [0x22, 0xC0, 0xAF, 0x22],  // overlong '/'
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8-encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape ("\n" then 0xFF)
            [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D],  // in a member name
            [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],  // a byte-order mark before the value
            [0x5B, 0x80, 0x5D],  // a stray continuation byte outside a string
        ] as [[UInt8]])
    func badUTF8(_ bytes: [UInt8]) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(bytes) }
    }

    @Test(
        "refuses lone or mis-ordered surrogate escapes",
        arguments: [
            #""\ud800""#, #""\udc00""#, #""\udfff""#, #""\ud800x""#, #""\ud800\u0041""#, #""\ud800\ud800""#,
            #""\ude00\ud83d""#, #""\ud83d\n""#, #""\ud83d\""#,
        ])
    func loneSurrogates(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(text.utf8)) }
    }

    @Test("refuses unescaped control characters in strings", arguments: Array(UInt8(0)..<0x20))
    func controlCharacters(_ byte: UInt8) {
        let text: [UInt8] = [0x22, 0x61, byte, 0x62, 0x22]
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(text) }
        // The same character after an escape takes the slow path; it must be refused there too.
        let afterEscape: [UInt8] = [0x22, 0x5C, 0x6E, byte, 0x22]
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(afterEscape) }
    }

    @Test(
        "integers beyond 64 bits become .number",
        arguments: [
            ("9223372036854775808", 9_223_372_036_854_775_808.0),
            ("-9223372036854775809", -9_223_372_036_854_775_809.0),
            ("123456789012345678901234567890", 123_456_789_012_345_678_901_234_567_890.0),
        ])
    func bigIntegers(_ text: String, _ expected: Double) throws {
        let value = try JSONParser().parse(Array(text.utf8))
        #expect(value == .number(expected))
    }

    @Test(
        "numbers out of Double's range are refused",
        arguments: ["1e400", "-1e400", "1" + String(repeating: "0", count: 400)])
    func hugeNumbers(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(text.utf8)) }
    }

    @Test("leading zeros are refused", arguments: ["01", "-01", "00", "007", "[01]", #"{"exp":0123}"#, "00.5", "-00"])
    func leadingZeros(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(text.utf8)) }
    }

    @Test(
        "refuses other malformed documents",
        arguments: [
            "", " ", "[", "{", "]", "}", "[1,]", "[,1]", #"{"a":1,}"#, "{a:1}", "{'a':1}", "'a'", #"{"a" 1}"#,
            #"{"a":}"#, #"{1:2}"#, "NaN", "Infinity", "-Infinity", "+1", ".5", "1.", "1.e3", "1e", "1e+", "-", "--1",
            "tru", "nul", "True", "NULL", #""abc"#, #""\x""#, #""\u12""#, #""\u12G4""#, #""\"#, "[1 2]", "/* c */ 1",
        ])
    func malformed(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(text.utf8)) }
    }

    @Test("a failure reports the offset where parsing stopped")
    func failureOffset() throws {
        let error = try #require(throws: JSONParser.Failure.self) { try JSONParser().parse(Array("[1, 2, x]".utf8)) }
        #expect(error.offset == 7)
        #expect(!error.reason.isEmpty)
    }

    @Test("accessors and serialization")
    func accessors() throws {
        let value = try JSONParser().parse(Array(#"{"s":"<x>","i":7,"d":2.0,"f":2.5,"b":false,"a":[null]}"#.utf8))
        #expect(value["s"]?.stringValue == "<x>")
        #expect(value["i"]?.int64Value == 7)
        #expect(value["d"]?.int64Value == 2)
        #expect(value["f"]?.int64Value == nil)
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?.arrayValue == [.null])
        #expect(value["missing"] == nil)
        #expect(value["s"]?["s"] == nil)
        #expect(value.jsonText == #"{"a":[null],"b":false,"d":2,"f":2.5,"i":7,"s":"\u003cx\u003e"}"#)
        // Whole doubles are written without a fraction, so the text (not the enum case) is what round-trips.
        #expect(try JSONParser().parse(Array(value.jsonText.utf8)).jsonText == value.jsonText)
    }
}
