import Foundation
import Testing

@testable import SSOKitStore

@Suite("SQLite schema versions")
struct SQLiteSchemaTests {
    @Test("a file written by a newer schema is refused as store_unavailable, not misread")
    func newerSchema() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-schema-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cache.sqlite").path
        _ = try SQLiteTokenCacheStore(path: path)
        try SQLiteConnection(path: path).execute("PRAGMA user_version = \(SQLiteTokenCacheStore.schemaVersion + 1)")
        #expect(throws: TokenCacheError(.storeUnavailable, "")) { try SQLiteTokenCacheStore(path: path) }
    }
}
