import Foundation
import Logging
import NIOCore
import NIOPosix
import SSOKitProxy
import Testing

@testable import SSOKitHummingbird

/// Who may use serve's intercepting proxy: the uid that owns a client's loopback socket, found in the kernel's
/// socket tables, must be the server's own or one the registry lets act as the browser.
@Suite struct ProxyClientAdmissionTests {
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A connection from 127.0.0.1:40000 to the proxy on 127.0.0.1:8888.
    let connection = ProxyClientConnection(
        clientHost: "127.0.0.1", clientPort: 40000, proxyHost: "127.0.0.1", proxyPort: 8888)

    func admission(owner: UInt32?, registry: CallerRegistry = CallerRegistry()) -> LocalUserProxyAdmission {
        LocalUserProxyAdmission(
            serverUID: 1000, registry: registry, browserBundleIdentifier: "org.chromium.chromium", logger: logger,
            owner: { _ in owner })
    }

    @Test func theServersOwnUidAndTheRegistrysBrowserUidsOnly() async {
        var registry = CallerRegistry()
        registry.grant(.applications(["org.chromium.chromium"]), to: .localUser(uid: 1001))
        registry.grant(.applications(["com.example.mail"]), to: .localUser(uid: 1002))
        #expect(await admission(owner: 1000, registry: registry).admits(connection))
        #expect(await admission(owner: 1001, registry: registry).admits(connection))
        #expect(await !admission(owner: 1002, registry: registry).admits(connection))
        #expect(await !admission(owner: 65534, registry: registry).admits(connection))
        #expect(await !admission(owner: nil, registry: registry).admits(connection))
    }

    func address(_ host: String, _ port: Int) -> SocketTableAddress {
        SocketTableAddress(host: host, port: port) ?? SocketTableAddress(bytes: [], port: -1)
    }

    @Test func theSocketTablesNameTheClientEndsOwner() {
        // Client 127.0.0.1:40000 → 127.0.0.1:8888 (uid 1001); the server's accepted end (uid 1000); a TIME_WAIT line
        // for the same pair (uid 0); another client.
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:22B8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1
               1: 0100007F:9C40 0100007F:22B8 01 00000000:00000000 00:00000000 00000000  1001        0 2 1
               2: 0100007F:22B8 0100007F:9C40 01 00000000:00000000 00:00000000 00000000  1000        0 3 1
               3: 0100007F:9C40 0100007F:22B8 06 00000000:00000000 03:00001000 00000000     0        0 0 3
               4: 0100007F:9C41 0100007F:22B8 01 00000000:00000000 00:00000000 00000000  1002        0 4 1
            """
        let client = address("127.0.0.1", 40000)
        let proxy = address("127.0.0.1", 8888)
        #expect(LoopbackSocketOwner.owners(in: table, local: client, remote: proxy) == [1001])
        #expect(LoopbackSocketOwner.owners(in: table, local: proxy, remote: client) == [1000])

        // IPv6 loopback, and an IPv4-mapped client seen as its IPv4 address.
        let table6 = """
              sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 00000000000000000000000001000000:9C40 00000000000000000000000001000000:22B8 01 00000000:00000000 00:00000000 00000000  1003        0 5 1
               1: 0000000000000000FFFF00000100007F:9C42 0000000000000000FFFF00000100007F:22B8 01 00000000:00000000 00:00000000 00000000  1004        0 6 1
            """
        #expect(
            LoopbackSocketOwner.owners(
                in: table6, local: address("::1", 40000),
                remote: address("::1", 8888)) == [1003])
        #expect(
            LoopbackSocketOwner.owners(
                in: table6, local: address("127.0.0.1", 40002), remote: proxy) == [1004])
    }

    @Test func aRealConnectionIsOwnedByThisProcesssUid() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        let clientPort = try #require(client.localAddress?.port)
        let connection = ProxyClientConnection(
            clientHost: "127.0.0.1", clientPort: clientPort, proxyHost: "127.0.0.1", proxyPort: port)
        #expect(LoopbackSocketOwner.uid(of: connection) == getuid())
        // No such connection: unknown, so refused.
        let unknown = ProxyClientConnection(
            clientHost: "127.0.0.1", clientPort: clientPort, proxyHost: "127.0.0.1", proxyPort: port == 1 ? 2 : 1)
        #expect(LoopbackSocketOwner.uid(of: unknown) == nil)
        try await client.close()
        try await server.close()
    }
}
