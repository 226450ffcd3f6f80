import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Closes a connection once the answer to a request that does not keep it ends: an HTTP/1.0 request without
/// `Connection: keep-alive`, a request with `Connection: close`, or an answer that says `Connection: close` (a
/// parse error's 400). Without it the server would wait for the client to hang up, until the request deadline.
///
/// It works on HTTP/1 messages, where the version is still known; ``Installer`` (among the server's additional
/// handlers) puts it in front of the conversion to HTTP types.
final class ConnectionCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var closeAfterAnswer = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) { closeAfterAnswer = !head.isKeepAlive }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
                closeAfterAnswer = true
            }
            context.write(data, promise: promise)
        case .end where closeAfterAnswer:
            let written = promise ?? context.eventLoop.makePromise()
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            context.write(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Added after the conversion to HTTP types (where the server's extra handlers go), it puts a
    /// ``ConnectionCloseHandler`` in front of that conversion and removes itself.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            if let codec = try? pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self) {
                try? pipeline.addHandler(ConnectionCloseHandler(), position: .before(codec.handler))
            }
            pipeline.removeHandler(context: context, promise: nil)
        }
    }
}
