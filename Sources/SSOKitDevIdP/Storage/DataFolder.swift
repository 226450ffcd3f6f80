import Foundation

/// The IdP's data folder: created 0700 (and tightened to 0700 when it exists), every file in it 0600. Files are
/// created whole or not at all (written under a temporary name, fsynced, then linked into place), and two processes
/// creating the same file at once agree on one: the later one reads the earlier one's.
struct DataFolder: Sendable {
    let url: URL

    /// Creates the folder (with its parents) when missing and restricts it to its owner.
    init(_ url: URL) throws(DevIdPError) {
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DevIdPError(.dataFolderUnavailable, "cannot create the data folder \(url.path)")
        }
        guard chmod(url.path, 0o700) == 0 else {
            throw DevIdPError(.dataFolderUnavailable, "cannot restrict the data folder \(url.path) to 0700")
        }
        self.url = url
    }

    /// The text of `name`, restricted to 0600 first; nil when the file does not exist.
    func read(_ name: String) throws(DevIdPError) -> String? {
        let path = url.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard chmod(path, 0o600) == 0, let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20,
            let text = String(data: data, encoding: .utf8)
        else { throw DevIdPError(.dataFolderUnavailable, "cannot read \(path)") }
        return text
    }

    /// Creates `name` with `text` (mode 0600) unless it exists; returns false when another writer got there first.
    func create(_ name: String, text: String) throws(DevIdPError) -> Bool {
        let path = url.appendingPathComponent(name).path
        let temporary = url.appendingPathComponent(".\(name).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DevIdPError(.dataFolderUnavailable, "cannot create a file in \(url.path)") }
        defer { unlink(temporary) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        guard close(descriptor) == 0, synced, written == bytes.count else {
            throw DevIdPError(.dataFolderUnavailable, "cannot write \(path)")
        }
        if link(temporary, path) == 0 { return true }
        guard errno == EEXIST else { throw DevIdPError(.dataFolderUnavailable, "cannot create \(path)") }
        return false
    }
}
