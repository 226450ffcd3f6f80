import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A request as a test origin received it.
struct ReceivedRequest: Sendable {
    var method: String
    var uri: String
    var headers: [(String, String)]
    var body: [UInt8]

    /// Every value of the field `name`, ignoring case.
    func values(_ name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }
}

/// What a test origin answers.
struct OriginAnswer: Sendable {
    var status: HTTPResponseStatus = .ok
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// Send the body chunked rather than with a length.
    var chunked = false
}

/// A small HTTP/1.1 server on 127.0.0.1 (optionally TLS) that records every request and answers with a closure.
final class TestOrigin: Sendable {
    let port: Int
    private let channel: any Channel
    private let log: RequestLog

    /// The requests received so far, in order.
    var requests: [ReceivedRequest] { log.all }

    private init(port: Int, channel: any Channel, log: RequestLog) {
        self.port = port
        self.channel = channel
        self.log = log
    }

    static func start(
        tls: NIOSSLContext? = nil,
        answer: @escaping @Sendable (ReceivedRequest) -> OriginAnswer = { _ in
            OriginAnswer(body: Array("origin answer".utf8))
        }
    ) async throws -> TestOrigin {
        let log = RequestLog()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(OriginHandler(log: log, answer: answer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return TestOrigin(port: channel.localAddress?.port ?? 0, channel: channel, log: log)
    }

    func stop() async {
        try? await channel.close()
    }
}

/// Requests in arrival order, shared between event loops and the test.
final class RequestLog: Sendable {
    private let entries = Mutex<[ReceivedRequest]>([])

    func append(_ request: ReceivedRequest) { entries.withLock { $0.append(request) } }

    var all: [ReceivedRequest] { entries.withLock { $0 } }
}

private final class OriginHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let log: RequestLog
    let answer: @Sendable (ReceivedRequest) -> OriginAnswer
    var current: ReceivedRequest?
    var keepAlive = true

    init(log: RequestLog, answer: @escaping @Sendable (ReceivedRequest) -> OriginAnswer) {
        self.log = log
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            current = ReceivedRequest(
                method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                body: [])
        case .body(let bytes):
            current?.body += Array(bytes.readableBytesView)
        case .end:
            guard let request = current else { return }
            current = nil
            log.append(request)
            let answer = answer(request)
            var headers = HTTPHeaders(answer.headers)
            if answer.chunked {
                headers.add(name: "Transfer-Encoding", value: "chunked")
            } else {
                headers.add(name: "Content-Length", value: String(answer.body.count))
            }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: answer.status, headers: headers))),
                promise: nil)
            if request.method != "HEAD" && !answer.body.isEmpty {
                let half = answer.chunked ? answer.body.count / 2 : answer.body.count
                for part in [answer.body[..<half], answer.body[half...]] where !part.isEmpty {
                    context.write(
                        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: part)))), promise: nil
                    )
                }
            }
            let close = !keepAlive
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if close { context.close(promise: nil) }
            }
        }
    }
}
