import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that accepts and then either never answers or closes at once: an origin gone wrong.
final class MuteOrigin: Sendable {
    let port: Int
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    static func start(closeAtOnce: Bool) async throws -> MuteOrigin {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                closeAtOnce ? channel.close() : channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return MuteOrigin(port: channel.localAddress?.port ?? 0, channel: channel)
    }

    func stop() async {
        try? await channel.close()
    }
}
