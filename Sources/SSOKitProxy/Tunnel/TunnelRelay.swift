import NIOCore

/// One end of a blind tunnel: bytes read on this connection are written to the partner's, reading pauses while
/// the partner's socket is full, and when one side closes the other closes once its queued bytes are written.
final class TunnelRelay: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var partner: TunnelRelay?
    private var context: ChannelHandlerContext?
    private var early: [ByteBuffer] = []
    private var readHeld = false
    private var closed = false

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    /// Joins two ends; bytes that arrived before go through now.
    func pair(with other: TunnelRelay) {
        partner = other
        other.partner = self
        for relay in [self, other] { relay.sendEarlyBytes() }
    }

    private func sendEarlyBytes() {
        guard let partner, !early.isEmpty else { return resumeReadsIfWanted() }
        for bytes in early { partner.deliver(bytes) }
        early = []
        partner.context?.flush()
        resumeReadsIfWanted()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if let partner { partner.deliver(bytes) } else { early.append(bytes) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    private func deliver(_ bytes: ByteBuffer) {
        context?.write(wrapOutboundOut(bytes), promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if let partner, partner.context?.channel.isWritable ?? false {
            context.read()
        } else {
            readHeld = true
        }
    }

    private func resumeReadsIfWanted() {
        guard readHeld, let context, partner?.context?.channel.isWritable ?? false else { return }
        readHeld = false
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        partner?.resumeReadsIfWanted()
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        let partner = self.partner
        self.partner = nil
        partner?.partnerClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        context.close(promise: nil)
    }

    /// Closes this end once everything written to it has left.
    private func partnerClosed() {
        partner = nil
        guard !closed, let context else { return }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// Closes this end at once (the tunnel was given up before it was joined).
    func close() {
        context?.close(promise: nil)
    }
}
