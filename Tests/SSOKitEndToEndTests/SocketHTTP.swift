import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/1.1 over a Unix domain socket (`ssokit serve`'s default listener) or to a TCP port on 127.0.0.1 (its
/// proxy), one request per connection, every read and write bounded by a socket timeout (10 s unless told). Blocking calls run
/// off Swift's cooperative pool.
enum SocketHTTP {
    /// Where to connect: a socket file's path, or a port on 127.0.0.1.
    enum Endpoint: Sendable {
        case unix(String)
        case loopback(port: Int)
    }

    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] }
        var error: String? { json?["error"] as? String }
        var result: String? { json?["result"] as? String }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func get(_ socket: String, _ path: String) async throws -> Answer {
        try await exchange(.unix(socket), "GET \(path) HTTP/1.1\r\nHost: ssokit\r\nConnection: close\r\n\r\n")
    }

    static func post(_ socket: String, _ path: String, body: String, timeout: Int = 10) async throws -> Answer {
        try await exchange(
            .unix(socket), timeout: timeout,
            "POST \(path) HTTP/1.1\r\nHost: ssokit\r\nConnection: close\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    /// Sends `request` and reads until the server closes.
    static func exchange(_ endpoint: Endpoint, timeout: Int = 10, _ request: String) async throws -> Answer {
        let raw = try await offPool {
            let descriptor: Int32
            switch endpoint {
            case .unix(let path): descriptor = try connect(path, timeout: timeout)
            case .loopback(let port): descriptor = try connect(port: port, timeout: timeout)
            }
            defer { close(descriptor) }
            try send(descriptor, Array(request.utf8))
            return readToEnd(descriptor)
        }
        return try parse(raw)
    }

    /// A connection to the Unix domain socket at `path`, with `timeout`-second send and receive timeouts.
    static func connect(_ path: String, timeout: Int = 10) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "socket path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return try connect(family: AF_UNIX, to: address, name: path, timeout: timeout)
    }

    /// A TCP connection to 127.0.0.1:`port`, with `timeout`-second send and receive timeouts.
    static func connect(port: Int, timeout: Int = 10) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return try connect(family: AF_INET, to: address, name: "127.0.0.1:\(port)", timeout: timeout)
    }

    private static func connect<Address>(family: Int32, to address: Address, name: String, timeout seconds: Int)
        throws -> Int32
    {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = address
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "connect(\(name)) failed: errno \(errno)")
        }
        return descriptor
    }

    static func send(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "write failed: errno \(errno)") }
            offset += written
        }
    }

    /// Everything until EOF, an error or a receive timeout.
    static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return result }
            result += buffer[0..<count]
        }
    }

    /// Runs blocking socket work on a thread of its own.
    static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    private static func parse(_ raw: [UInt8]) throws -> Answer {
        let text = String(decoding: raw, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no HTTP answer: \(text)") }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
            let status = Int(statusLine.split(separator: " ")[1])
        else { throw Failure(description: "no status line") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
        return Answer(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ text: String) -> String {
        var rest = Substring(text)
        var body = ""
        while let end = rest.range(of: "\r\n"), let size = Int(rest[..<end.lowerBound], radix: 16), size > 0 {
            let start = end.upperBound
            let stop = rest.utf8.index(start, offsetBy: size)
            body += rest[start..<stop]
            rest = rest[stop...].dropFirst(2)
        }
        return body
    }
}
