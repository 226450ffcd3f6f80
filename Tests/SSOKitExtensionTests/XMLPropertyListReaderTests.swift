import Foundation
import SSOKitCore
import Testing

@testable import SSOKitExtension

@Suite("Reading XML property lists without Foundation's parser")
struct XMLPropertyListReaderTests {
    private func read(_ body: String, prologue: String = #"<?xml version="1.0" encoding="UTF-8"?>"#) throws
        -> ProfileValue
    {
        try XMLPropertyListReader.read(Array((prologue + body).utf8), maximumDepth: 32)
    }

    private func plist(_ value: String) -> String { #"<plist version="1.0">"# + value + "</plist>" }

    @Test("every XML property list among the fixtures reads as Foundation reads it")
    func agreesWithFoundation() throws {
        let folder = try ProfileFixtures.folder.appendingPathComponent("profiles")
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where name.hasSuffix(".mobileconfig") {
            let bytes = try ProfileFixtures.bytes(name)
            guard bytes.first == UInt8(ascii: "<"), !name.contains("entity"), name != "malformed.mobileconfig" else {
                continue
            }
            let expected = try FoundationPropertyList.value(
                PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil))
            #expect(try XMLPropertyListReader.read(bytes, maximumDepth: 32) == expected, "\(name)")
            compared += 1
        }
        #expect(compared >= 3, "the fixtures hold XML property lists to compare")
    }

    @Test("every property-list type, with Apple's prologue, comments, CDATA and references")
    func everyType() throws {
        let text = """
            \u{FEFF}<?xml version="1.0" encoding="utf-8"?>
            <!-- made by hand -->
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>string</key><string>a &amp; b &lt;&gt; &quot;&apos; &#65;&#x42; <![CDATA[<raw> & ]]><!-- c -->é</string>
            \t<key>empty</key><string/>
            \t<key>integer</key><integer> -9223372036854775808 </integer>
            \t<key>big</key><integer>9223372036854775807</integer>
            \t<key>real</key><real>6.02e23</real>
            \t<key>yes</key><true/>
            \t<key>no</key><false></false>
            \t<key>date</key><date>2026-01-01T00:00:00Z</date>
            \t<key>data</key><data>
            \tAAEC
            \t/w==
            \t</data>
            \t<key>nothing</key><data></data>
            \t<key>list</key><array><array/><dict/></array>
            \t<key>line</key><string>a&#13;&#10;b&#13;c</string>
            </dict>
            </plist>

            """
        let value = try XMLPropertyListReader.read(Array(text.utf8), maximumDepth: 32)
        #expect(
            value
                == .dictionary([
                    "string": .string(#"a & b <> "' AB <raw> & é"#), "empty": .string(""),
                    "integer": .integer(.min), "big": .integer(.max), "real": .real(6.02e23), "yes": .bool(true),
                    "no": .bool(false), "date": .date(Date(timeIntervalSince1970: 1_767_225_600)),
                    "data": .data([0, 1, 2, 255]), "nothing": .data([]),
                    "list": .array([.array([]), .dictionary([:])]), "line": .string("a\r\nb\rc"),
                ]))
    }

    @Test(
        "malformed property lists are refused with malformed_profile",
        arguments: [
            ("no <plist>", #"<dict/>"#),
            ("an empty <plist>", #"<plist version="1.0"/>"#),
            ("a <plist> without a value", #"<plist></plist>"#),
            ("two values", #"<plist><true/><true/></plist>"#),
            ("content after </plist>", #"<plist><true/></plist><true/>"#),
            ("text after </plist>", #"<plist><true/></plist>x"#),
            ("a second DOCTYPE", #"<!DOCTYPE plist><!DOCTYPE plist><plist><true/></plist>"#),
            ("a DOCTYPE inside", #"<plist><!DOCTYPE plist><true/></plist>"#),
            ("an XML declaration later", #"<plist><?xml version="1.0"?><true/></plist>"#),
            ("the same key twice", #"<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>"#),
            ("a value without a key", #"<plist><dict><true/></dict></plist>"#),
            ("a key without a value", #"<plist><dict><key>a</key></dict></plist>"#),
            ("a key outside a dict", #"<plist><array><key>a</key></array></plist>"#),
            ("text between elements", #"<plist><array>x<true/></array></plist>"#),
            ("an unknown element", #"<plist><set/></plist>"#),
            ("an element inside a string", #"<plist><string>a<b/></string></plist>"#),
            ("a mismatched close tag", #"<plist><array></dict></plist>"#),
            ("a close tag with another name", #"<plist><string>a</strings></plist>"#),
            ("an attribute on a value", #"<plist><string id="1">a</string></plist>"#),
            ("an unquoted attribute", #"<plist version=1.0><true/></plist>"#),
            ("a non-empty <true>", #"<plist><true>yes</true></plist>"#),
            ("a hexadecimal integer", #"<plist><integer>0x10</integer></plist>"#),
            ("an integer past 64 bits", #"<plist><integer>9223372036854775808</integer></plist>"#),
            ("an integer below 64 bits", #"<plist><integer>-9223372036854775809</integer></plist>"#),
            ("an empty integer", #"<plist><integer/></plist>"#),
            ("a sign alone", #"<plist><integer>-</integer></plist>"#),
            ("an integer with a fraction", #"<plist><integer>1.5</integer></plist>"#),
            ("a real that is not a number", #"<plist><real>nan</real></plist>"#),
            ("an infinite real", #"<plist><real>1e400</real></plist>"#),
            ("a date with a fraction", #"<plist><date>2026-01-01T00:00:00.5Z</date></plist>"#),
            ("a date with an offset", #"<plist><date>2026-01-01T00:00:00+01:00</date></plist>"#),
            ("a date on February 30th", #"<plist><date>2026-02-30T00:00:00Z</date></plist>"#),
            ("a date at hour 24", #"<plist><date>2026-01-01T24:00:00Z</date></plist>"#),
            ("a date that is cut short", #"<plist><date>2026-01-01T00:00:00</date></plist>"#),
            ("data that is not base64", #"<plist><data>AA*=</data></plist>"#),
            ("data without padding", #"<plist><data>AAE</data></plist>"#),
            ("an undeclared entity", #"<plist><string>&nbsp;</string></plist>"#),
            ("an unterminated reference", #"<plist><string>&amp</string></plist>"#),
            ("a reference to NUL", #"<plist><string>&#0;</string></plist>"#),
            ("a reference to a surrogate", #"<plist><string>&#xD800;</string></plist>"#),
            ("a reference past Unicode", #"<plist><string>&#x110000;</string></plist>"#),
            ("a control character", "<plist><string>a\u{1}b</string></plist>"),
            ("]]> in text", #"<plist><string>a]]>b</string></plist>"#),
            ("an unterminated CDATA section", #"<plist><string><![CDATA[a</string></plist>"#),
            ("an unterminated comment", #"<plist><!-- <true/></plist>"#),
            ("a CDATA section between values", #"<plist><array><![CDATA[x]]></array></plist>"#),
            ("a malformed name", #"<plist><1/></plist>"#),
            ("a truncated tag", #"<plist><true"#),
            ("a control character in CDATA", "<plist><string><![CDATA[a\u{0}b]]></string></plist>"),
            ("U+FFFE", "<plist><string>a\u{FFFE}</string></plist>"),
            (
                "31 combining marks in a row",
                "<plist><string>a" + String(repeating: "\u{301}", count: 31) + "</string></plist>"
            ),
            ("a key that is not ASCII", "<plist><dict><key>\u{212A}ey</key><true/></dict></plist>"),
            ("a reference inside <data>", #"<plist><data>QUJD&#x51;UJD</data></plist>"#),
            ("a reference inside <integer>", #"<plist><integer>&#49;2</integer></plist>"#),
            ("CDATA inside <data>", #"<plist><data><![CDATA[QUJD]]></data></plist>"#),
            ("a comment inside <integer>", #"<plist><integer>1<!-- -->2</integer></plist>"#),
            ("non-ASCII inside <date>", "<plist><date>2026-01-01T00:00:00\u{FF3A}</date></plist>"),
            (
                "a > inside a DOCTYPE literal",
                #"<!DOCTYPE plist SYSTEM "><plist><true/></plist><!--"><plist><false/></plist>"#
            ),
            ("a DOCTYPE without a name", #"<!DOCTYPEplist><plist><true/></plist>"#),
            ("a processing instruction without a target", #"<plist><??><true/></plist>"#),
            ("white space in <true>", #"<plist><true> </true></plist>"#),
        ])
    func refusals(reason: String, body: String) throws {
        let error = #expect(throws: ProfileError.self, "\(reason)") { try read(body) }
        #expect(error?.code == .malformedProfile, "\(reason): \(error?.reason ?? "")")
    }

    @Test("a digit and 200,000 alternating combining marks (one Character) is refused at once, as number or text")
    func combiningMarks() throws {
        let marks = String(repeating: "\u{301}\u{316}", count: 100_000)
        for element in ["integer", "real", "string", "key"] {
            let error = #expect(throws: ProfileError.self) { try read(plist("<\(element)>1\(marks)</\(element)>")) }
            #expect(error?.code == .malformedProfile)
        }
    }

    @Test("30 combining marks in a row are read; markup-like text in CDATA and comments is text, not a declaration")
    func acceptedEdges() throws {
        let marks = "a" + String(repeating: "\u{301}", count: 30)
        #expect(try read(plist("<string>\(marks)</string>")) == .string(marks))
        let cdata = #"<string><![CDATA[<!ENTITY x "y">]]></string>"#
        #expect(try ProfileDocumentProbe.read(plist(cdata)) == .string(#"<!ENTITY x "y">"#))
        #expect(try ProfileDocumentProbe.read(plist("<!-- <!x> --><true/>")) == .bool(true))
    }

    @Test("read as Apple's parser reads them: a raw CR kept, a comment ending at the first -->, utf8 as UTF-8")
    func asApple() throws {
        #expect(try read(plist("<string>a\r\nb<![CDATA[\r]]></string>")) == .string("a\r\nb\r"))
        #expect(try read(plist("<!-- ---- divider -- --><true/>")) == .bool(true))
        #expect(try read(plist("<true/>"), prologue: #"<?xml version="1.0" encoding="utf8"?>"#) == .bool(true))
    }

    @Test("a JSON profile's member names are ASCII too")
    func jsonNames() throws {
        let error = #expect(throws: ProfileError.self) {
            try ProfileLoader().load(Array(#"{"PayloadContent":[],"\#u{212A}ey":1}"#.utf8))
        }
        #expect(error?.code == .malformedProfile)
        #expect(error?.reason.contains("not ASCII") == true)
    }

    @Test("text that is not UTF-8 is refused")
    func notUTF8() throws {
        var bytes = Array(#"<plist><string>"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#"</string></plist>"#.utf8)
        let error = #expect(throws: ProfileError.self) { try XMLPropertyListReader.read(bytes, maximumDepth: 32) }
        #expect(error?.code == .malformedProfile)
    }

    @Test("an encoding other than UTF-8 is refused as unsupported, however its name is spelled")
    func otherEncoding() throws {
        for encoding in ["UTF-16", "ISO-8859-1", "UTF\r\u{18}"] {
            let error = #expect(throws: ProfileError.self) {
                try read(plist("<true/>"), prologue: "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>")
            }
            #expect(error?.code == .unsupportedFormat, "\(encoding.debugDescription)")
        }
    }

    @Test("an internal DTD subset or a markup declaration is refused by name, also past the prologue check")
    func declarations() throws {
        for body in [#"<!DOCTYPE plist [ ]><plist><true/></plist>"#, #"<plist><!ELEMENT x ANY><true/></plist>"#] {
            let error = #expect(throws: ProfileError.self) { try read(body) }
            #expect(error?.code == .entityDeclarationsRefused, "\(body)")
        }
    }

    @Test("nesting is capped before it is read: 32 levels are read, 33 are refused")
    func depth() throws {
        func nested(_ levels: Int) -> String {
            String(repeating: "<array>", count: levels) + "<true/>" + String(repeating: "</array>", count: levels)
        }
        #expect(throws: Never.self) { try read(plist(nested(32))) }
        let error = #expect(throws: ProfileError.self) { try read(plist(nested(33))) }
        #expect(error?.reason.contains("deeper than 32") == true)
        let deep = #expect(throws: ProfileError.self) { try read(plist(nested(100_000))) }
        #expect(deep?.code == .malformedProfile)
    }

    @Test("every proper prefix of a valid property list is refused, and none crashes")
    func prefixes() throws {
        let bytes = try ProfileFixtures.bytes("oidc-redirect.mobileconfig")
        #expect(throws: Never.self) { try XMLPropertyListReader.read(bytes, maximumDepth: 32) }
        let end = bytes.lastIndex(of: UInt8(ascii: ">")) ?? bytes.count
        for length in stride(from: 0, to: end, by: 7) {
            #expect(throws: ProfileError.self, "prefix of \(length) bytes") {
                try XMLPropertyListReader.read(Array(bytes[..<length]), maximumDepth: 32)
            }
        }
    }

    @Test("a refusal names the byte offset, never the profile's text")
    func messages() throws {
        let error = #expect(throws: ProfileError.self) {
            try read(plist("<dict><key>client_secret</key><string>hunter2&bogus;</string></dict>"))
        }
        let message = error?.reason ?? ""
        #expect(message.contains("at byte"))
        #expect(!message.contains("hunter2") && !message.contains("bogus") && !message.contains("client_secret"))
    }
}

/// The reader behind the prologue check, as ``ProfileLoader`` runs them.
private enum ProfileDocumentProbe {
    static func read(_ body: String) throws -> ProfileValue {
        let bytes = Array(body.utf8)
        try PropertyListPrologue.check(bytes)
        return try XMLPropertyListReader.read(bytes, maximumDepth: 32)
    }
}

/// Turns what Foundation's `PropertyListSerialization` returns into a ``ProfileValue``, for comparing the reader with
/// it on well-formed documents. On Linux `<true/>` arrives as `Bool` and numbers as `NSNumber`.
private enum FoundationPropertyList {
    static func value(_ object: Any) throws -> ProfileValue {
        if let value = object as? String { return .string(value) }
        if type(of: object) == Bool.self, let value = object as? Bool { return .bool(value) }
        if let value = object as? Date { return .date(value) }
        if let value = object as? Data { return .data(Array(value)) }
        if let number = object as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "C", "B": return .bool(number.boolValue)
            case "d", "f": return .real(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        }
        if let array = object as? [Any] { return .array(try array.map(value)) }
        if let dictionary = object as? [String: Any] { return .dictionary(try dictionary.mapValues(value)) }
        throw CocoaError(.propertyListReadCorrupt)
    }
}
