import Foundation
import PostgresTestSupport
import Synchronization

/// A fake PostgreSQL server on 127.0.0.1 that asks the first client for a cleartext password (protocol 3.0,
/// AuthenticationCleartextPassword), records it, and refuses the login. It proves which password the CLI sends
/// without a server that checks one.
final class PostgresPasswordProbe: Sendable {
    let port: Int
    private let listener: Int32
    private let received = Mutex<String?>(nil)
    private let done = Mutex(false)

    init() throws {
        let (descriptor, port) = try ThrowawayPostgres.boundLoopbackSocket()
        guard listen(descriptor, 4) == 0 else {
            close(descriptor)
            throw ProbeError(message: "listen failed")
        }
        listener = descriptor
        self.port = port
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    /// The password the first client sent, once it has.
    var password: String? { received.withLock { $0 } }

    /// Stops accepting; the serving thread ends within a second.
    func stop() {
        done.withLock { $0 = true }
    }

    private func serve() {
        defer { close(listener) }
        // Bounded: at most 60 s, checking every 200 ms whether the test is done.
        for _ in 0..<300 {
            if done.withLock({ $0 }) { return }
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Startup message (or an SSLRequest first, which is declined with 'N').
        for _ in 0..<2 {
            guard let length = readInt32(client), length >= 8, length < 10_000,
                let body = readBytes(client, Int(length) - 4)
            else { return }
            if body.prefix(4) == [0x04, 0xD2, 0x16, 0x2F] {  // 80877103: SSLRequest
                _ = reply(client, [UInt8(ascii: "N")])
                continue
            }
            break
        }
        _ = reply(client, [UInt8(ascii: "R"), 0, 0, 0, 8, 0, 0, 0, 3])  // AuthenticationCleartextPassword
        guard readBytes(client, 1) == [UInt8(ascii: "p")], let length = readInt32(client), length >= 5,
            length < 10_000, let body = readBytes(client, Int(length) - 4)
        else { return }
        received.withLock { $0 = String(decoding: body.prefix { $0 != 0 }, as: UTF8.self) }
        let fields: [UInt8] = Array("SFATAL\0C28P01\0Mpassword authentication failed\0\0".utf8)
        let size = UInt32(fields.count + 4).bigEndian
        _ = reply(client, [UInt8(ascii: "E")] + withUnsafeBytes(of: size) { Array($0) } + fields)
    }

    private func readInt32(_ client: Int32) -> UInt32? {
        guard let bytes = readBytes(client, 4) else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    private func readBytes(_ client: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                recv(client, UnsafeMutableRawPointer(buffer.baseAddress).map { $0 + filled }, count - filled, 0)
            }
            guard got > 0 else { return nil }
            filled += got
        }
        return bytes
    }

    private func reply(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        return bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, flags) } == bytes.count
    }

    struct ProbeError: Error {
        let message: String
    }
}
