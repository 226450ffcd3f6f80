import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file of a listening Unix domain socket: a stale socket left by an earlier run is replaced, anything else at
/// the path is refused; the socket is created with mode 0600 (only its owner, and root, can connect).
enum UnixSocketFile {
    /// Longest path a `sockaddr_un` holds (with its terminating NUL).
    static let maximumPathBytes = 107

    /// Makes `path` ready to bind: absent, or a socket that is removed.
    static func prepare(_ path: String) throws(AppAPIServerError) {
        guard !path.isEmpty, path.utf8.count <= maximumPathBytes else {
            throw AppAPIServerError(.invalidListener, "the socket path must be 1 to \(maximumPathBytes) bytes")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw AppAPIServerError(.listenFailed, "\(path) exists and is not a socket")
        }
        guard unlink(path) == 0 else {
            throw AppAPIServerError(.listenFailed, "the stale socket \(path) could not be removed")
        }
    }

    /// Removes the socket at `path` when the server stops.
    static func remove(_ path: String) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }

    /// The process's file-creation mask narrowed to owner-only while the socket is created, then restored, and the
    /// socket's mode set to 0600.
    final class RestrictedCreation: Sendable {
        private let path: String
        private let saved = Mutex<mode_t?>(nil)

        init(path: String) {
            self.path = path
        }

        func begin() {
            saved.withLock { $0 = umask(0o177) }
        }

        func finish() {
            guard let mask = saved.withLock({ value -> mode_t? in
                defer { value = nil }
                return value
            }) else { return }
            umask(mask)
            chmod(path, 0o600)
        }
    }
}
