import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP server on 127.0.0.1 that accepts connections and never answers: an IdP that hangs, so that a request to
/// `ssokit serve` stays in flight. ``stop()`` closes everything.
final class SilentServer: Sendable {
    let port: Int
    private let listener: Int32
    private let accepted = Mutex<[Int32]>([])

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard descriptor >= 0, bound == 0, named == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw SocketHTTP.Failure(description: "the silent server could not listen")
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        // The thread holds the server until stop() closes the listener and accept fails.
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                accepted.withLock { $0.append(connection) }
            }
        }
    }

    /// How many connections it has accepted.
    var connections: Int { accepted.withLock { $0.count } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in accepted.withLock({ $0 }) { close(connection) }
    }
}
