import NIOCore
import NIOPosix
import Testing

@testable import SSOKitHummingbird

/// The app API's connection caps: overall and per TCP peer, enforced as each connection is set up.
@Suite struct ConnectionLimiterTests {
    @Test func capsCountOverallAndPerPeer() {
        let limiter = ConnectionLimiter(total: 3, perPeer: 2)
        #expect(limiter.admit("127.0.0.1"))
        #expect(limiter.admit("127.0.0.1"))
        #expect(!limiter.admit("127.0.0.1"))
        #expect(limiter.admit(nil))
        #expect(!limiter.admit("127.0.0.2"))
        #expect(!limiter.admit(nil))
        #expect(limiter.open == 3)
        limiter.release("127.0.0.1")
        #expect(limiter.admit("127.0.0.2"))
        limiter.release(nil)
        #expect(limiter.admit("127.0.0.1"))
        #expect(!limiter.admit("127.0.0.1"))
    }

    @Test func aConnectionOverThePeerCapIsClosedAndItsPlaceFreedOnClose() async throws {
        let limiter = ConnectionLimiter(total: 100, perPeer: 2)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(limiter.handler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { server.close(promise: nil) }
        let port = try #require(server.localAddress?.port)
        func connect() async throws -> any Channel {
            try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(
                host: "127.0.0.1", port: port
            )
            .get()
        }
        func closedByServer(_ channel: any Channel) async -> Bool {
            for _ in 0..<500 where channel.isActive { try? await Task.sleep(for: .milliseconds(10)) }
            return !channel.isActive
        }
        func waitForOpen(_ count: Int) async {
            for _ in 0..<500 where limiter.open != count { try? await Task.sleep(for: .milliseconds(10)) }
        }
        let first = try await connect()
        let second = try await connect()
        await waitForOpen(2)
        let third = try await connect()
        #expect(await closedByServer(third))
        #expect(first.isActive && second.isActive)
        try await first.close()
        await waitForOpen(1)
        let fourth = try await connect()
        await waitForOpen(2)
        try await Task.sleep(for: .milliseconds(100))
        #expect(fourth.isActive)
        #expect(limiter.open == 2)
        try await second.close()
        try await fourth.close()
    }
}
