import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitExtension

/// Reading the profile fixtures from tests.
enum ProfileFixtures {
    static var folder: URL {
        get throws {
            guard let root = FixtureLoader.fixturesDirectory() else { throw CocoaError(.fileNoSuchFile) }
            return root.appendingPathComponent("profiles")
        }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent("profiles").appendingPathComponent(name)))
    }

    static func text(_ relativePath: String) throws -> String {
        String(decoding: try Data(contentsOf: folder.appendingPathComponent(relativePath)), as: UTF8.self)
    }

    /// A loader at the fixtures' time (2026-01-01) reading files from disk.
    static func loader(trust: String? = nil, requireVerifiedSignature: Bool = false) throws -> ProfileLoader {
        ProfileLoader(
            trustAnchors: try trust.map { try ProfileTrustAnchors(pem: text($0)) },
            requireVerifiedSignature: requireVerifiedSignature, fileReader: FixtureFileReader(),
            clock: FixedClock(unixSeconds: 1_767_225_600))
    }

    /// Loads `profiles/<name>` with relative paths resolved against that folder.
    static func load(_ name: String, loader: ProfileLoader? = nil) throws -> SSOProfile {
        let loader = try loader ?? Self.loader()
        return try loader.load(bytes(name), directory: try folder.appendingPathComponent("profiles").path)
    }

    /// A JSON profile from payload dictionaries written as JSON text.
    static func json(_ payloads: String...) -> [UInt8] {
        Array(("{\"PayloadContent\": [" + payloads.joined(separator: ",") + "]}").utf8)
    }

    /// A minimal valid payload's JSON with `type` and `routes` (`"URLs": [...]` or `"Hosts": [...]`).
    static func payload(_ identifier: String, type: String = "Redirect", routes: String, data: String? = nil) -> String
    {
        let extensionData =
            data ?? #"{"protocol": "oidc", "issuer": "https://idp.example.com", "client_id": "c"}"#
        return """
            {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)",
             "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", "Type": "\(type)",
             \(routes), "ExtensionData": \(extensionData)}
            """
    }
}

/// A reader that serves files from memory and counts reads.
struct MemoryFiles: ProfileFileReader {
    let files: [String: [UInt8]]

    func contents(ofFile path: String, maximumBytes: Int) throws -> [UInt8] {
        guard let bytes = files[path], bytes.count <= maximumBytes else { throw CocoaError(.fileNoSuchFile) }
        return bytes
    }
}
