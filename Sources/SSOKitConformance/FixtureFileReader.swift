import Foundation
import SSOKitExtension

/// A `ProfileFileReader` over the local file system, for fixtures and tests.
public struct FixtureFileReader: ProfileFileReader {
    /// Creates a reader.
    public init() {}

    /// The file's bytes; throws when it is missing or larger than `maximumBytes`.
    public func contents(ofFile path: String, maximumBytes: Int) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard data.count <= maximumBytes else { throw CocoaError(.fileReadTooLarge) }
        return Array(data)
    }
}
