import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file of a listening Unix domain socket: a stale socket left by an earlier run is replaced, a live one (a
/// server answers there) or anything else at the path is refused; the socket is created with mode 0600 (only its
/// owner, and root, can connect).
///
/// A server holds an exclusive lock on `PATH.lock` while it runs, so that two servers never take turns at one path,
/// and removes the socket at the end only if the file there is still the one it bound.
enum UnixSocketFile {
    /// Longest path a `sockaddr_un` holds (with its terminating NUL).
    static let maximumPathBytes = 107

    /// Makes `path` ready to bind: absent, or a stale socket that is removed. The returned claim holds the lock
    /// until ``Claim/release()``.
    static func prepare(_ path: String) throws(ServeError) -> Claim {
        guard !path.isEmpty, path.utf8.count <= maximumPathBytes else {
            throw ServeError(.invalidListener, "the socket path must be 1 to \(maximumPathBytes) bytes")
        }
        let claim = try Claim(path: path)
        guard let type = fileType(path) else { return claim }
        guard type == .typeSocket else {
            claim.release()
            throw ServeError(.listenFailed, "\(path) exists and is not a socket")
        }
        guard !answers(path) else {
            claim.release()
            throw ServeError(.listenFailed, "\(path) is in use: another server answers there")
        }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            claim.release()
            throw ServeError(.listenFailed, "the stale socket \(path) could not be removed")
        }
        return claim
    }

    /// Whether a server accepts connections on the socket at `path`.
    static func answers(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return connected == 0
    }

    /// The type of the file at `path` itself (a symbolic link is not followed), nil when there is none.
    static func fileType(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    /// The identity (device, inode) of the file at `path` itself, nil when there is none.
    static func identity(_ path: String) -> [UInt64]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        else { return nil }
        return [device, inode]
    }

    /// One server's hold on a socket path: the lock on `PATH.lock`, and the identity of the socket it bound.
    final class Claim: Sendable {
        let path: String
        private let lock: Mutex<Int32>
        private let bound = Mutex<[UInt64]?>(nil)

        init(path: String) throws(ServeError) {
            self.path = path
            let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                throw ServeError(.listenFailed, "the lock file \(path).lock cannot be opened")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                throw ServeError(.listenFailed, "\(path) is in use: another server holds \(path).lock")
            }
            lock = Mutex(descriptor)
        }

        /// Notes the socket just bound at the path, so that only it is removed at the end.
        func recordBound() {
            let identity = UnixSocketFile.identity(path)
            bound.withLock { $0 = identity }
        }

        /// Removes the socket if it is still the one this server bound, and lets go of the lock.
        func release() {
            if let mine = bound.withLock({ $0 }), UnixSocketFile.identity(path) == mine,
                UnixSocketFile.fileType(path) == .typeSocket
            {
                unlink(path)
            }
            let descriptor = lock.withLock { value -> Int32 in
                defer { value = -1 }
                return value
            }
            if descriptor >= 0 { close(descriptor) }
        }
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
