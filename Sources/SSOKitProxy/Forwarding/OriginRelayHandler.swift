import NIOCore
import NIOHTTP1

/// The last handler of an origin connection: passes the origin's response parts to the browser connection's
/// handler, writes the request parts it is given, and reads from the origin only while the browser keeps up.
final class OriginRelayHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// The browser side; nil once the exchange is over.
    weak var owner: ProxyConnectionHandler?
    let exchangeID: Int
    private var context: ChannelHandlerContext?
    private var readHeld = false

    init(owner: ProxyConnectionHandler, exchangeID: Int) {
        self.owner = owner
        self.exchangeID = exchangeID
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        owner?.originReceived(unwrapInboundIn(data), exchangeID: exchangeID)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        owner?.flushToBrowser()
    }

    func channelInactive(context: ChannelHandlerContext) {
        owner?.originClosed(exchangeID: exchangeID)
        owner = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        owner?.originFailed(timedOut: false, exchangeID: exchangeID)
        owner = nil
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        owner?.originFailed(timedOut: true, exchangeID: exchangeID)
        owner = nil
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        owner?.resumeReadsIfWanted()
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if owner?.browserIsWritable ?? true {
            context.read()
        } else {
            readHeld = true
        }
    }

    /// Reads from the origin again if a read was held and the browser keeps up now.
    func resumeReadsIfWanted() {
        guard readHeld, owner?.browserIsWritable ?? true, let context else { return }
        readHeld = false
        context.read()
    }

    /// Writes a request part towards the origin (flushed by ``flush()``).
    func write(_ part: HTTPClientRequestPart) {
        context?.write(wrapOutboundOut(part), promise: nil)
    }

    func flush() { context?.flush() }

    /// Whether the origin connection takes more bytes without queueing.
    var isWritable: Bool { context?.channel.isWritable ?? false }

    /// Stops reporting to the browser side and closes the origin connection.
    func detachAndClose() {
        owner = nil
        context?.close(promise: nil)
    }
}
