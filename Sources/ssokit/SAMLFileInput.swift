import Foundation
import SSOKitSAML

/// Reading the files the `ssokit saml` commands name; a missing or unreadable file is a CLI failure, not a crash.
enum SAMLFileInput {
    static func bytes(_ path: String, limit: Int = 8 << 20) throws -> [UInt8] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw CLIFailure(code: "file_unreadable", message: "cannot read \(path)")
            }
            data = contents
        }
        guard data.count <= limit else { throw SAMLError(.tooLarge, "\(path) is larger than \(limit) bytes") }
        return Array(data)
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try bytes(path, limit: 1 << 20), as: UTF8.self)
    }

    /// Every certificate in a PEM file.
    static func certificates(_ path: String) throws -> [SAMLCertificate] {
        let text = try text(path)
        let blocks = text.components(separatedBy: "-----END CERTIFICATE-----").filter {
            $0.contains("-----BEGIN CERTIFICATE-----")
        }
        let certificates = try blocks.map { try SAMLCertificate(pem: $0 + "-----END CERTIFICATE-----\n") }
        guard !certificates.isEmpty else { throw SAMLError(.invalidKey, "\(path) holds no PEM certificate") }
        return certificates
    }

    static func metadata(_ path: String, now: Date) throws -> IdentityProviderMetadata {
        try IdentityProviderMetadata.parse(bytes(path, limit: 4 << 20), now: now)
    }
}
