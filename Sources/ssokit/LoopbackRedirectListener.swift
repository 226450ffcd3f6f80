import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SSOKitCore
import Synchronization

/// Listens on 127.0.0.1 for the one redirect that ends a browser login (RFC 8252 §7.3) and hands over its query.
///
/// Any local process can reach the port, so only the callback whose `state` equals the login's (compared in
/// constant time) is taken; any other request gets a 400 and the listener keeps waiting, up to
/// ``maximumRejected`` of them and the timeout.
final class LoopbackRedirectListener: Sendable {
    /// How many foreign requests to `/callback` are answered before the login gives up.
    static let maximumRejected = 20

    private let channel: any Channel
    private let received: AsyncStream<CallbackEvent>
    private let filter: CallbackFilter
    /// The port bound.
    let port: Int

    /// Binds 127.0.0.1:`port` (0 picks a free port) and answers `GET /callback?...`.
    init(port: Int) async throws {
        let (stream, continuation) = AsyncStream<CallbackEvent>.makeStream()
        let filter = CallbackFilter()
        received = stream
        self.filter = filter
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(CallbackHandler(continuation: continuation, filter: filter))
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
        self.port = channel.localAddress?.port ?? port
    }

    /// The redirect URI to register for this listener.
    var redirectURI: String { "http://127.0.0.1:\(port)/callback" }

    /// Accepts only callbacks carrying `state`; call it before the browser is sent off.
    func expect(state: String) { filter.expect(state) }

    /// Waits for the callback whose `state` matches, at most `timeout` seconds and ``maximumRejected`` others.
    func waitForCallback(timeout: Duration) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var rejected = 0
                for await event in self.received {
                    switch event {
                    case .matched(let query): return query
                    case .rejected:
                        rejected += 1
                        if rejected >= Self.maximumRejected {
                            throw CLIFailure(
                                code: "state_mismatch",
                                message: "\(rejected) callbacks without this login's state reached the listener")
                        }
                    }
                }
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

/// What the listener saw at `/callback`.
private enum CallbackEvent: Sendable {
    case matched(String)
    case rejected
}

/// The state the one acceptable callback carries; taken once.
private final class CallbackFilter: Sendable {
    private let expected = Mutex<String?>(nil)

    func expect(_ state: String) { expected.withLock { $0 = state } }

    /// Whether `query` carries exactly one `state`, equal to the expected one; a match is consumed.
    func take(_ query: String) -> Bool {
        let states = (FormURLEncoding.decode(query) ?? []).filter { $0.0 == "state" }.map(\.1)
        return expected.withLock { expected in
            guard let wanted = expected, states.count == 1, ConstantTime.equals(states[0], wanted) else { return false }
            expected = nil
            return true
        }
    }
}

private final class CallbackHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let continuation: AsyncStream<CallbackEvent>.Continuation
    private let filter: CallbackFilter

    init(continuation: AsyncStream<CallbackEvent>.Continuation, filter: CallbackFilter) {
        self.continuation = continuation
        self.filter = filter
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let isCallback = head.method == .GET && parts.first == "/callback"
        let query = parts.count > 1 ? String(parts[1]) : ""
        let status: HTTPResponseStatus
        let text: String
        if !isCallback {
            (status, text) = (.notFound, "not found")
        } else if filter.take(query) {
            continuation.yield(.matched(query))
            (status, text) = (.ok, "<!doctype html><title>SSOKit</title><p>Login received. You can close this window.")
        } else {
            continuation.yield(.rejected)
            (status, text) = (.badRequest, "this callback does not belong to the login in progress")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: status == .ok ? "text/html; charset=utf-8" : "text/plain")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(
            wrapOutboundOut(.head(.init(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
