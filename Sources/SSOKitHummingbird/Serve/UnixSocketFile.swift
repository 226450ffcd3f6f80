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
    static func prepare(_ path: String) throws(ServeError) {
        guard !path.isEmpty, path.utf8.count <= maximumPathBytes else {
            throw ServeError(.invalidListener, "the socket path must be 1 to \(maximumPathBytes) bytes")
        }
        guard let type = fileType(path) else { return }
        guard type == .typeSocket else {
            throw ServeError(.listenFailed, "\(path) exists and is not a socket")
        }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw ServeError(.listenFailed, "the stale socket \(path) could not be removed")
        }
    }

    /// Removes the socket at `path` when the server stops.
    static func remove(_ path: String) {
        if fileType(path) == .typeSocket { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The type of the file at `path` itself (a symbolic link is not followed), nil when there is none.
    private static func fileType(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
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
            guard
                let mask = saved.withLock({ value -> mode_t? in
                    defer { value = nil }
                    return value
                })
            else { return }
            umask(mask)
            chmod(path, 0o600)
        }
    }
}
