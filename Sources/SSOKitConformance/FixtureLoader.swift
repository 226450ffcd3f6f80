import Foundation
import SSOKitCore
import SSOKitOIDC

/// Finds and reads the repository's `fixtures/` folder.
public enum FixtureLoader {
    /// A fixture file and its parsed JSON object.
    public struct Case: Sendable, CustomStringConvertible {
        /// The file's path relative to its fixture folder.
        public let name: String
        /// The parsed members.
        public let members: [String: JSONValue]
        /// The file name, which names the case in test output.
        public var description: String { name }

        /// A string member.
        public func string(_ key: String) -> String? { members[key]?.stringValue }
    }

    /// The `fixtures/` folder: `$SSOKIT_FIXTURES` when set, else the first `fixtures` found walking up from
    /// `start` (this source file's location by default, then the working directory).
    public static func fixturesDirectory(start: String = #filePath) -> URL? {
        if let override = ProcessInfo.processInfo.environment["SSOKIT_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        for origin in [URL(fileURLWithPath: start), URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
            var directory = origin
            for _ in 0..<8 {
                let candidate = directory.appendingPathComponent("fixtures")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// Every `*.json` case under `<root>/<folder>`, sorted by name; `root` defaults to ``fixturesDirectory(start:)``.
    public static func cases(in folder: String, root: URL? = nil) throws -> [Case] {
        guard let root = root ?? fixturesDirectory() else { throw CocoaError(.fileNoSuchFile) }
        let directory = root.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            guard let object = try JSONParser().parse(Array(data)).objectValue else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return Case(name: name, members: object)
        }
    }
}
