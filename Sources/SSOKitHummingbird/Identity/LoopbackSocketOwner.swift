import SSOKitProxy

#if canImport(Glibc)
    import Glibc
#endif

/// The uid that owns the client end of a TCP connection on this host, from the kernel's socket tables
/// (`/proc/net/tcp` and `/proc/net/tcp6`, proc(5)): the line whose local address is the client's and whose remote
/// address is the server's, in a state where the socket still belongs to a process.
///
/// This is how the intercepting proxy knows which local user a browser connection comes from: the TCP twin of
/// `SO_PEERCRED`. The uid is the one the kernel recorded for the socket, not something the client says.
public enum LoopbackSocketOwner {
    /// The socket tables read, IPv4 then IPv6.
    static let tables = ["/proc/net/tcp", "/proc/net/tcp6"]
    /// The most of one table read (about 100,000 sockets); a longer table is not trusted.
    static let maximumTableBytes = 16 << 20

    /// The uid owning the client end of `connection`, nil when it cannot be determined (not found, found twice
    /// with different owners, a table unreadable or too long, or not Linux).
    public static func uid(of connection: ProxyClientConnection) -> UInt32? {
        guard let client = SocketTableAddress(host: connection.clientHost, port: connection.clientPort),
            let server = SocketTableAddress(host: connection.proxyHost, port: connection.proxyPort)
        else { return nil }
        var owners = Set<UInt32>()
        for table in tables {
            guard let text = read(table) else { continue }
            owners.formUnion(self.owners(in: text, local: client, remote: server))
        }
        return owners.count == 1 ? owners.first : nil
    }

    /// The uids of the lines of `table` (the text of a `/proc/net/tcp*` file) for a socket from `local` to
    /// `remote` that a process still owns (ESTABLISHED, FIN_WAIT1, FIN_WAIT2; a TIME_WAIT line reports uid 0).
    static func owners(in table: String, local: SocketTableAddress, remote: SocketTableAddress) -> Set<UInt32> {
        var owners = Set<UInt32>()
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, ["01", "04", "05"].contains(fields[3]),
                SocketTableAddress(tableField: fields[1]) == local, SocketTableAddress(tableField: fields[2]) == remote,
                let uid = UInt32(fields[7])
            else { continue }
            owners.insert(uid)
        }
        return owners
    }

    private static func read(_ path: String) -> String? {
        #if os(Linux)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while bytes.count <= maximumTableBytes {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(contentsOf: chunk[0..<count])
            }
            return nil
        #else
            return nil
        #endif
    }
}

/// An address and port as the kernel's socket tables compare them: the address's bytes in network order (an
/// IPv4-mapped IPv6 address as its IPv4 bytes).
struct SocketTableAddress: Hashable {
    let bytes: [UInt8]
    let port: Int

    init(bytes: [UInt8], port: Int) {
        if bytes.count == 16, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            self.bytes = Array(bytes.suffix(4))
        } else {
            self.bytes = bytes
        }
        self.port = port
    }

    /// A textual address (`127.0.0.1`, `::1`) and a port.
    init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        // inet_pton writes 4 (AF_INET) or 16 (AF_INET6) bytes in network order.
        var v4 = [UInt8](repeating: 0, count: 4)
        var v6 = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, host, &v4) == 1 {
            self.init(bytes: v4, port: port)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            self.init(bytes: v6, port: port)
        } else {
            return nil
        }
    }

    /// A table field, `0100007F:1F90`: the address as 32-bit words printed in host byte order, then the port.
    init?(tableField: Substring) {
        let parts = tableField.split(separator: ":")
        guard parts.count == 2, [8, 32].contains(parts[0].utf8.count), parts[1].utf8.count == 4,
            let port = Int(parts[1], radix: 16)
        else { return nil }
        var bytes: [UInt8] = []
        var rest = parts[0]
        while !rest.isEmpty {
            guard let word = UInt32(rest.prefix(8), radix: 16) else { return nil }
            // The kernel printed the word as it lies in memory: its native bytes are the address's bytes.
            bytes += withUnsafeBytes(of: word) { Array($0) }
            rest = rest.dropFirst(8)
        }
        self.init(bytes: bytes, port: port)
    }
}
