import Foundation
import Logging
import SSOKitHummingbird
import Synchronization
import Testing

/// One JSON object per line, with the handler's metadata and the event's (which wins on a shared key).
@Suite struct JSONLinesLogHandlerTests {
    @Test func oneObjectPerLineEventMetadataWins() throws {
        let lines = Mutex<[String]>([])
        var handler = JSONLinesLogHandler(label: "test.label") { line in lines.withLock { $0.append(line) } }
        handler.metadata = ["shared": "handler", "only_handler": "h"]
        let logger = Logger(label: "test.label", factory: { _ in handler })
        logger.info("answered", metadata: ["shared": "event", "count": "\(3)", "list": ["a", "b"]])
        let written = lines.withLock { $0 }
        try #require(written.count == 1)
        #expect(written[0].hasSuffix("\n") && written[0].filter { $0 == "\n" }.count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "answered")
        #expect(object["level"] as? String == "info")
        #expect(object["label"] as? String == "test.label")
        #expect(object["shared"] as? String == "event")
        #expect(object["only_handler"] as? String == "h")
        #expect(object["count"] as? String == "3")
        #expect(object["list"] as? [String] == ["a", "b"])
        #expect(object["time"] is String)
    }
}
