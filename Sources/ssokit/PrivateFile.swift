import Foundation

/// Files that hold secrets: `cache.key`, `device.key`, `--client-key`, `--client-secret-file`, `PGPASSFILE`.
///
/// One is read only when it is a regular file owned by the user running `ssokit` and neither readable nor
/// writable by group or others (mode 0600 or stricter); otherwise another local user could have read or replaced
/// it, and the command stops with `insecure_key_file`. The check is made on the opened file itself, so the file
/// cannot be swapped between the check and the read.
enum PrivateFile {
    /// The bytes of `path`, at most `limit`; `nil` when it does not exist.
    static func readIfPresent(_ path: String, limit: Int = 64 << 10) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw CLIFailure(code: "file_unreadable", message: "cannot open \(path) (errno \(errno))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CLIFailure(code: "file_unreadable", message: "cannot inspect \(path)")
        }
        try check(status, path: path)
        return try BoundedRead.all(descriptor, limit: limit, name: path)
    }

    /// The bytes of `path`, which must exist.
    static func read(_ path: String, limit: Int = 64 << 10) throws -> [UInt8] {
        guard let bytes = try readIfPresent(path, limit: limit) else {
            throw CLIFailure(code: "file_unreadable", message: "\(path) does not exist")
        }
        return bytes
    }

    /// Refuses a file that is not regular, belongs to someone else, or is open to group or others.
    private static func check(_ status: stat, path: String) throws {
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CLIFailure(code: "insecure_key_file", message: "\(path) is not a regular file")
        }
        let user = geteuid()
        guard status.st_uid == user else {
            throw CLIFailure(
                code: "insecure_key_file",
                message: "\(path) belongs to uid \(status.st_uid), not to the user running ssokit (uid \(user))")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw CLIFailure(
                code: "insecure_key_file",
                message: "\(path) has mode 0\(String(mode, radix: 8)); other users could read or replace it "
                    + "(chmod 600 \(path))")
        }
    }
}
