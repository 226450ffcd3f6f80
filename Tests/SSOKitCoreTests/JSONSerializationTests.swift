import SSOKitCore
import Testing

/// `JSONValue.jsonText`: every escape, multi-byte text copied as it is, and a round trip through the parser.
@Suite("JSONValue serialization")
struct JSONSerializationTests {
    @Test func escapesQuotesBackslashesControlsAndAngleBrackets() {
        let value = JSONValue.string("a\"b\\c\nd\re\tf<g>h\u{01}i\u{1F}j")
        #expect(value.jsonText == #""a\"b\\c\nd\re\tf\u003cg\u003eh\u0001i\u001fj""#)
    }

    @Test func multiByteTextIsCopiedAndRoundTrips() throws {
        let text = "é 日本 🙂 \u{2028} end"
        let value = JSONValue.object(["k\"ey": .string(text), "n": .array([.integer(-3), .bool(true), .null])])
        #expect(value.jsonText == #"{"k\"ey":"é 日本 🙂 \#u{2028} end","n":[-3,true,null]}"#)
        #expect(try JSONParser().parse(Array(value.jsonText.utf8)) == value)
        #expect(JSONValue.string("").jsonText == #""""#)
    }
}
