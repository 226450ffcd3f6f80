import Foundation
import SSOKitConformance

/// SSOKit's `fixtures/` folder, found from this file's place in the repository (or `SSOKIT_FIXTURES`).
func fixturesDirectory() throws -> URL {
    guard let root = FixtureLoader.fixturesDirectory(start: #filePath) else {
        throw WorkloadFailure("fixtures/ not found (set SSOKIT_FIXTURES)")
    }
    return root
}

/// The members of one JSON fixture file.
func fixtureObject(_ path: String) throws -> [String: Any] {
    let url = try fixturesDirectory().appendingPathComponent(path)
    guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
        throw WorkloadFailure("\(path) is not a JSON object")
    }
    return object
}

/// The bytes of a fixture file.
func fixtureBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixturesDirectory().appendingPathComponent(path)))
}
