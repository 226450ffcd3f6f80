import Foundation
import SSOKitCore
import Testing

@Suite("JSONParser.parseObjectMembers")
struct JSONObjectMembersTests {
    /// `count` distinct names, then `extra` appended as the last member's name (a duplicate when it repeats one).
    static func object(count: Int, extra: String? = nil) -> String {
        var names = (0..<count).map { "m\($0)" }
        if let extra { names.append(extra) }
        return "{" + names.map { "\"\($0)\":1" }.joined(separator: ",") + "}"
    }

    static let documents: [String] =
        JSONParserTests.validDocuments.map(\.text) + [
            #"{"a":1,"a":2}"#, #"{"a":1,"b":2,"a":3}"#, #"{"a":1,"\u0061":2}"#, #"{"x":{"k":1,"k":null}}"#,
            "{\"\u{E9}\":1,\"e\u{301}\":2}", "{} x", "{}{}", " {\"a\":1} ", "{\"a\":1}}", "[{}]", "{", "{\"a\":}", "",
            object(count: 16), object(count: 40), object(count: 16, extra: "m3"), object(count: 40, extra: "m39"),
            object(count: 40, extra: "m0"),
            String(repeating: "{\"a\":", count: 32) + "1" + String(repeating: "}", count: 32),
            String(repeating: "{\"a\":", count: 33) + "1" + String(repeating: "}", count: 33),
            // Names of every length around the packed keys' halves (8 bytes) and their limit (16 bytes), the same
            // name keyed and escaped, and bytes a key must not take (DEL is allowed raw, non-ASCII is not keyed).
            "{" + (1...18).map { "\"\(String(repeating: "n", count: $0))\":\($0)" }.joined(separator: ",") + "}",
            #"{"abcdefghijklmnop":1,"abcdefghijklmno\u0070":2}"#, #"{"abcdefghijklmnopq":1,"abcdefghijklmnopq":2}"#,
            #"{"abcdefgh":1,"abcdefg\u0068":2}"#, #"{"abcdefgh":1,"abcdefghi":2,"abcdefg":3}"#,
            "{\"a\u{7F}\":1,\"a\":2}", "{\"\u{E9}t\u{E9}\":1,\"\u{E9}t\u{E9}\":2}", #"{"":1,"a":2}"#, #"{"":1,"":2}"#,
        ]

    @Test("agrees with parse on every document: same refusals, same members, document order", arguments: documents)
    func agreesWithParse(_ text: String) throws {
        let bytes = Array(text.utf8)
        let parser = JSONParser()
        let expected = Result { () throws(JSONParser.Failure) in try parser.parse(bytes) }
        let members = Result { () throws(JSONParser.Failure) in
            try bytes.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
                try parser.parseObjectMembers(buffer)
            }
        }
        switch (expected, members) {
        case (.failure(let refusal), .failure(let same)):
            #expect(refusal == same)
        case (.success(.object(let object)), .success(let list?)):
            #expect(list.count == object.count)
            for member in list { #expect(object[member.name] == member.value) }
            let names = list.map(\.name)
            let positions = names.compactMap { text.range(of: "\"\($0)\"")?.lowerBound }
            #expect(positions == positions.sorted())
        case (.success(let value), .success(nil)):
            #expect(value.objectValue == nil)
        default:
            Issue.record("parse gave \(expected), parseObjectMembers gave \(members)")
        }
    }

    @Test("a keyed name reads back as written, at every length a key can hold", arguments: 1...16)
    func keyedNameReadsBack(_ length: Int) throws {
        // Printable ASCII other than the quote and the backslash, varied so that every byte of the key differs.
        let name = String((0..<length).map { Character(Unicode.Scalar(UInt8(0x23 + ($0 * 7) % 57))) })
        let bytes = Array("{\"\(name)\":true}".utf8)
        let members = try bytes.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
            try JSONParser().parseObjectMembers(buffer)
        }
        let member = try #require(members?.first)
        #expect(member.nameKey != .none)
        #expect(member.nameKey == JSONNameKey(name))
        #expect(member.name == name)
    }

    @Test("a duplicate name is refused in a short and in a long object")
    func duplicates() {
        for text in [Self.object(count: 3, extra: "m1"), Self.object(count: 100, extra: "m57")] {
            let bytes = Array(text.utf8)
            #expect(throws: JSONParser.Failure.self) {
                try bytes.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
                    try JSONParser().parseObjectMembers(buffer)
                }
            }
        }
    }
}

@Suite("JSONParser long strings")
struct JSONLongStringTests {
    /// A 40-byte string body with `special` at `position`.
    static func body(_ special: [UInt8], at position: Int) -> [UInt8] {
        var bytes = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCD".utf8)
        bytes.replaceSubrange(position..<(position + 1), with: special)
        return bytes
    }

    @Test("a special byte at any position of a long string is seen", arguments: 0..<40)
    func specialByteAnywhere(_ position: Int) throws {
        let quote: [UInt8] = [0x22]
        // An escape is decoded, an unescaped quote ends the string early, a control byte is refused where it sits,
        // and a multi-byte character is kept whole.
        let escaped = try JSONParser().parse(quote + Self.body(Array(#"\n"#.utf8), at: position) + quote)
        #expect(escaped.stringValue?.utf8.count == 40)
        #expect(escaped.stringValue?.utf8.contains(0x0A) == true)
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser().parse(quote + Self.body(quote, at: position) + quote)
        }
        let control = try #require(throws: JSONParser.Failure.self) {
            try JSONParser().parse(quote + Self.body([0x1F], at: position) + quote)
        }
        #expect(control.offset == position + 1)
        let accented = try JSONParser().parse(quote + Self.body(Array("é".utf8), at: position) + quote)
        #expect(accented.stringValue == String(decoding: Self.body(Array("é".utf8), at: position), as: UTF8.self))
        let invalid: [UInt8] = [0xFF]
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser().parse(quote + Self.body(invalid, at: position) + quote)
        }
    }
}
