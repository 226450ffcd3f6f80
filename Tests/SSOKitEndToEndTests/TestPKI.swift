import Crypto
import Foundation
import Testing

/// A throwaway PKI made with the `openssl` command for mutual-TLS tests: a CA, a server certificate for 127.0.0.1,
/// two client certificates from the CA and one from another CA (P-256, two days).
struct TestPKI {
    let folder: URL

    init(in folder: URL) async throws {
        self.folder = folder
        for (authority, name) in [("ca", "ssokit test CA"), ("rogue-ca", "rogue CA")] {
            try await openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", path(authority + ".key")])
            try await openssl([
                "req", "-x509", "-new", "-key", path(authority + ".key"), "-out", path(authority + ".pem"), "-days",
                "2", "-subj", "/CN=\(name)",
            ])
        }
        try Data("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: folder.appendingPathComponent("server.ext"))
        try Data("extendedKeyUsage=clientAuth\n".utf8).write(to: folder.appendingPathComponent("client.ext"))
        try await issue("server", by: "ca", extensions: "server.ext")
        try await issue("client-a", by: "ca", extensions: "client.ext")
        try await issue("client-b", by: "ca", extensions: "client.ext")
        try await issue("client-rogue", by: "rogue-ca", extensions: "client.ext")
        for key in ["server", "client-a", "client-b", "client-rogue"] {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o600], ofItemAtPath: path(key + ".key"))
        }
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The lower-case hex SHA-256 of the DER of `name`.pem.
    func fingerprint(_ name: String) throws -> String {
        let pem = try String(contentsOfFile: path(name + ".pem"), encoding: .utf8)
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: base64))
        return SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined()
    }

    private func issue(_ name: String, by authority: String, extensions: String) async throws {
        try await openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", path(name + ".key")])
        try await openssl([
            "req", "-new", "-key", path(name + ".key"), "-out", path(name + ".csr"), "-subj", "/CN=\(name)",
        ])
        try await openssl([
            "x509", "-req", "-in", path(name + ".csr"), "-CA", path(authority + ".pem"), "-CAkey",
            path(authority + ".key"), "-CAcreateserial", "-out", path(name + ".pem"), "-days", "2", "-extfile",
            path(extensions),
        ])
    }

    private func openssl(_ arguments: [String]) async throws {
        let result = try await ProcessRunner.run("/usr/bin/openssl", arguments, timeout: 60)
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
    }
}
