import Crypto
import Foundation
import SSOKitCore
import SSOKitOIDC

/// Identifies one cached session: calling app, provider and client.
struct SessionKey {
    let app: String
    let issuer: String
    let clientID: String

    /// A file name that reveals none of the three values.
    var fileName: String {
        let digest = SHA256.hash(data: Array("\(app)\n\(issuer)\n\(clientID)".utf8))
        return digest.map { String(format: "%02x", $0) }.joined() + ".json"
    }
}

/// A logged-in session as the CLI keeps it between commands.
struct StoredSession {
    var tokens: TokenSet
    var claims: [String: JSONValue]

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "access_token": .string(tokens.accessToken), "token_type": .string(tokens.tokenType),
            "id_token_claims": .object(claims),
        ]
        if let expiry = tokens.accessTokenExpiresAt {
            members["access_token_expires_at"] = .integer(Int64(expiry.timeIntervalSince1970))
        }
        if let refreshToken = tokens.refreshToken { members["refresh_token"] = .string(refreshToken) }
        if let idToken = tokens.idToken { members["id_token"] = .string(idToken) }
        if let scope = tokens.scope { members["scope"] = .string(scope) }
        return .object(members)
    }

    init(tokens: TokenSet, claims: [String: JSONValue]) {
        self.tokens = tokens
        self.claims = claims
    }

    init?(json: JSONValue) {
        guard let accessToken = json["access_token"]?.stringValue, let claims = json["id_token_claims"]?.objectValue
        else { return nil }
        tokens = TokenSet(
            accessToken: accessToken, tokenType: json["token_type"]?.stringValue ?? "Bearer",
            accessTokenExpiresAt: json["access_token_expires_at"]?.int64Value.map {
                Date(timeIntervalSince1970: TimeInterval($0))
            },
            refreshToken: json["refresh_token"]?.stringValue, idToken: json["id_token"]?.stringValue,
            scope: json["scope"]?.stringValue)
        self.claims = claims
    }
}

/// The CLI's interim token store: one JSON file per session in a 0700 folder, each written atomically with mode
/// 0600 (write a temporary file, fsync, rename, fsync the folder) so that a crash never leaves half a file.
struct SessionStore {
    let directory: URL

    func load(_ key: SessionKey) throws -> StoredSession? {
        let url = directory.appendingPathComponent(key.fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let value = try? JSONParser().parse(Array(data)), let session = StoredSession(json: value) else {
            throw CLIFailure(code: "cache_corrupt", message: "the cached session file is unreadable")
        }
        return session
    }

    func save(_ session: StoredSession, for key: SessionKey) throws {
        try prepareDirectory()
        let target = directory.appendingPathComponent(key.fileName)
        let temporary = directory.appendingPathComponent(".\(key.fileName).\(getpid()).tmp")
        let bytes = Array(session.json.jsonText.utf8)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw storeFailure("cannot create a file in the cache folder") }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard result > 0 else {
                close(descriptor)
                unlink(temporary.path)
                throw storeFailure("writing the cache file failed")
            }
            written += result
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporary.path, target.path) == 0 else {
            unlink(temporary.path)
            throw storeFailure("committing the cache file failed")
        }
        syncDirectory()
    }

    func remove(_ key: SessionKey) throws -> Bool {
        let path = directory.appendingPathComponent(key.fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return false }
        guard unlink(path) == 0 else { throw storeFailure("removing the cache file failed") }
        syncDirectory()
        return true
    }

    private func prepareDirectory() throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
    }

    private func syncDirectory() {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    private func storeFailure(_ message: String) -> CLIFailure {
        CLIFailure(code: "cache_write_failed", message: message)
    }
}
