import NIOCore
import NIOEmbedded
import Testing

@testable import SSOKitHummingbird

/// A connection's identity is found once and forgotten when the connection closes, even when it closed before its
/// identity was stored.
@Suite struct ConnectionIdentityCacheTests {
    @Test func oneEntryPerOpenConnectionGoneWhenItCloses() async throws {
        let cache = ConnectionIdentityCache()
        let first = EmbeddedChannel()
        let second = EmbeddedChannel()
        // No address: not identified, and remembered as such for the connection.
        #expect(await cache.identity(of: first) == nil)
        #expect(await cache.identity(of: first) == nil)
        #expect(await cache.identity(of: second) == nil)
        #expect(cache.count == 2)
        // The removal runs on the channel's event loop, as a real connection's would.
        try await first.close()
        first.embeddedEventLoop.run()
        #expect(cache.count == 1)
        try await second.close()
        second.embeddedEventLoop.run()
        #expect(cache.count == 0)
    }

    @Test func aConnectionClosedBeforeItsFirstAnswerLeavesNoEntry() async throws {
        let cache = ConnectionIdentityCache()
        let channel = EmbeddedChannel()
        try await channel.close()
        #expect(await cache.identity(of: channel) == nil)
        channel.embeddedEventLoop.run()
        #expect(cache.count == 0)
    }
}
