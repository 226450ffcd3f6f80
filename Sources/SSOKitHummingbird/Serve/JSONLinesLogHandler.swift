import Foundation
import Logging
import SSOKitCore
import SSOKitOIDC

/// A swift-log handler that writes one JSON object per line: `{"time", "level", "label", "message", ...metadata}`.
///
/// It writes what it is given: SSOKit's server code puts in metadata only names, codes and counts (an app's bundle
/// ID, an operation, a result kind, a failure reason), never a token, code, cookie, password or assertion.
public struct JSONLinesLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler for `label` that hands each line (with its line break) to `write`.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // The event's metadata wins over the handler's; no merged copy is made (a line per request in a server).
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(metadata.count + (event.metadata?.count ?? 0) + 4)
        for (key, value) in metadata { members[key] = Self.json(value) }
        for (key, value) in event.metadata ?? [:] { members[key] = Self.json(value) }
        members["time"] = .string(Date().formatted(.iso8601))
        members["level"] = .string(event.level.rawValue)
        members["label"] = .string(label)
        members["message"] = .string(event.message.description)
        write(JSONValue.object(members).jsonText + "\n")
    }

    private static func json(_ value: Logger.MetadataValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let item): .string(item.description)
        case .array(let items): .array(items.map(json))
        case .dictionary(let members): .object(members.mapValues(json))
        }
    }
}
