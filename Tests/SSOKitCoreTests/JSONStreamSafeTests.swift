import SSOKitCore
import Testing

@Suite("JSON strings are stream-safe")
struct JSONStreamSafeTests {
    @Test("30 combining marks in a row are read, 31 are refused, in values, names and escapes alike")
    func combiningRuns() throws {
        let thirty = "a" + String(repeating: "\u{301}", count: 30)
        let parsed = try JSONParser().parse(Array(#"{"k":"\#(thirty)"}"#.utf8))
        #expect(parsed.objectValue?["k"] == .string(thirty))
        let documents = [
            #"{"k":"a\#(String(repeating: "\u{301}", count: 31))"}"#,
            #"{"a\#(String(repeating: "\u{316}", count: 31))":1}"#,
            #"{"k":"a\#(String(repeating: #"\u0301"#, count: 31))"}"#,
        ]
        for document in documents {
            let error = #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(document.utf8)) }
            #expect(error?.reason.contains("combining marks") == true)
        }
    }

    @Test("a name of 200,000 alternating combining marks is refused before it is hashed")
    func longRun() throws {
        let name = "a" + String(repeating: "\u{301}\u{316}", count: 100_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser().parse(Array(#"{"\#(name)":1}"#.utf8)) }
    }
}
