import Foundation
import SSOKitCore

/// The CLI's own files outside the cache folder: `$XDG_CONFIG_HOME/ssokit` (or `~/.config/ssokit`), mode 0700.
enum ConfigFiles {
    static var directory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CONFIG_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("ssokit")
        }
        return URL(fileURLWithPath: environment["HOME"] ?? ".").appendingPathComponent(".config/ssokit")
    }

    /// Reads the base64 key in `name`, creating it with 32 random bytes (mode 0600, written with O_EXCL, fsynced)
    /// on first use. Two processes creating it at once agree: the loser reads the winner's file. An existing key
    /// file that another user owns, or that group or others may read or write, is refused (``PrivateFile``).
    static func key(named name: String) throws -> [UInt8] {
        try SecureFolder.prepare(directory)
        let path = directory.appendingPathComponent(name).path
        for _ in 0..<2 {
            if let data = try PrivateFile.readIfPresent(path, limit: 4096) {
                guard let text = String(validating: data, as: UTF8.self),
                    let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
                    bytes.count == 32
                else { throw CLIFailure(code: "invalid_key", message: "\(path) is not a base64 32-byte key") }
                return Array(bytes)
            }
            let bytes = SecureRandom.bytes(32)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw CLIFailure(code: "store_unavailable", message: "cannot create \(path) (errno \(errno))")
            }
            let text = Array((Data(bytes).base64EncodedString() + "\n").utf8)
            let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == text.count, fsync(descriptor) == 0, close(descriptor) == 0 else {
                unlink(path)
                throw CLIFailure(code: "store_unavailable", message: "cannot write \(path)")
            }
            return bytes
        }
        throw CLIFailure(code: "store_unavailable", message: "cannot read \(path)")
    }
}

/// Folders that hold secrets: created 0700, and tightened to 0700 when they already exist.
enum SecureFolder {
    static func prepare(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIFailure(code: "store_unavailable", message: "cannot create the folder \(url.path)")
        }
        guard chmod(url.path, 0o700) == 0 else {
            throw CLIFailure(code: "store_unavailable", message: "cannot restrict the folder \(url.path) to 0700")
        }
    }
}
