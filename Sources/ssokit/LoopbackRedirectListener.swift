import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Listens on 127.0.0.1 for the one redirect that ends a browser login (RFC 8252 §7.3) and hands over its query.
final class LoopbackRedirectListener: Sendable {
    private let channel: any Channel
    private let received: AsyncStream<String>
    /// The port bound.
    let port: Int

    /// Binds 127.0.0.1:`port` (0 picks a free port) and answers `GET /callback?...`.
    init(port: Int) async throws {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        received = stream
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(CallbackHandler(continuation: continuation))
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        self.port = channel.localAddress?.port ?? port
    }

    /// The redirect URI to register for this listener.
    var redirectURI: String { "http://127.0.0.1:\(port)/callback" }

    /// Waits for the callback's query, at most `timeout` seconds.
    func waitForCallback(timeout: Duration) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for await query in self.received { return query }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let query = first else {
                throw CLIFailure(code: "login_timed_out", message: "no redirect reached the loopback listener in time")
            }
            return query
        }
    }

    func close() async {
        try? await channel.close()
    }
}

private final class CallbackHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let continuation: AsyncStream<String>.Continuation

    init(continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let isCallback = head.method == .GET && parts.first == "/callback"
        if isCallback { continuation.yield(parts.count > 1 ? String(parts[1]) : "") }
        let text =
            isCallback
            ? "<!doctype html><title>SSOKit</title><p>Login received. You can close this window."
            : "not found"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: isCallback ? "text/html; charset=utf-8" : "text/plain")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(
            wrapOutboundOut(
                .head(.init(version: head.version, status: isCallback ? .ok : .notFound, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
