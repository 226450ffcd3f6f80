import Foundation
import HTTPTypes
import NIOCore
import SSOKitCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The transport's deadline covers the whole exchange: a server that sends its headers at once and then trickles
/// its body one byte at a time cannot hold a request past it.
@Suite struct TransportDeadlineTests {
    @Test func aBodyTrickledSlowerThanTheDeadlineEndsWithTimeout() async throws {
        let server = try TricklingServer()
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(2)))
        await #expect(throws: HTTPTransportError.self) {
            _ = try await transport.send(
                HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/"), body: nil)
        }
        // Before the fix each trickled byte reset the idle timer: the 60 bytes (30 s) arrived and the request
        // succeeded. Now the deadline ends it while the server still has bytes to send (on a starved machine the
        // deadline may even end it before the connection is up: either way the request does not outlive it).
        #expect(server.bytesSent < 60)
        try await transport.shutdown()
    }
}

/// A one-connection HTTP server on 127.0.0.1 that answers with a 60-byte body sent one byte every half second.
private final class TricklingServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let sent = ByteCount()

    /// How many body bytes the client has been sent so far.
    var bytesSent: Int { sent.value.load(ordering: .relaxed) }
    private let thread: Thread

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CocoaError(.fileNoSuchFile) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw CocoaError(.fileNoSuchFile)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let sent = self.sent
        thread = Thread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &buffer, buffer.count)
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 60\r\nContent-Type: text/plain\r\n\r\n"
            guard write(connection, head, head.utf8.count) > 0 else { return }
            for _ in 0..<60 {
                usleep(500_000)
                guard send(connection, "x", 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                sent.value.add(1, ordering: .relaxed)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

/// A counter the server's thread and the test share.
private final class ByteCount: Sendable {
    let value = Atomic<Int>(0)
}
