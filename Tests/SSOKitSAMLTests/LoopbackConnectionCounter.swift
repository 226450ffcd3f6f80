import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// A TCP listener on 127.0.0.1 that accepts, counts and at once closes every connection, on its own thread, until
/// stopped (and in any case after 30 s): the witness that nothing was fetched.
final class LoopbackConnectionCounter: Sendable {
    /// The port it listens on.
    let port: UInt16
    private let descriptor: Int32
    private let state = Mutex<(connections: Int, stopped: Bool)>((0, false))
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptUntilStopped() }
        thread.start()
    }

    /// How many connections arrived so far.
    var connections: Int { state.withLock { $0.connections } }

    /// Stops accepting, waits for the thread and closes the socket.
    func stop() {
        state.withLock { $0.stopped = true }
        finished.wait()
        close(descriptor)
    }

    private func acceptUntilStopped() {
        defer { finished.signal() }
        for _ in 0..<300 where !state.withLock({ $0.stopped }) {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            state.withLock { $0.connections += 1 }
            close(connection)
        }
    }
}
