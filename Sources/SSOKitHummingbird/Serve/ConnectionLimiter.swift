import NIOCore
import NIOTLS
import Synchronization

/// The app API's open connections: at most `total`, and at most `perPeer` from one TCP peer address, so that
/// peers that connect and say nothing cannot take every file descriptor.
final class ConnectionLimiter: Sendable {
    private struct Counts {
        var total = 0
        var byPeer: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())
    let total: Int
    let perPeer: Int

    init(total: Int, perPeer: Int) {
        self.total = total
        self.perPeer = perPeer
    }

    /// Counts a connection from `peer` (nil: not a TCP peer); false, counting nothing, when a cap is reached.
    func admit(_ peer: String?) -> Bool {
        counts.withLock { counts in
            guard counts.total < total else { return false }
            if let peer {
                guard counts.byPeer[peer, default: 0] < perPeer else { return false }
                counts.byPeer[peer, default: 0] += 1
            }
            counts.total += 1
            return true
        }
    }

    /// Stops counting a connection from `peer`.
    func release(_ peer: String?) {
        counts.withLock { counts in
            counts.total -= 1
            if let peer {
                let left = counts.byPeer[peer, default: 1] - 1
                counts.byPeer[peer] = left > 0 ? left : nil
            }
        }
    }

    /// How many connections are open.
    var open: Int { counts.withLock { $0.total } }

    /// A handler, one per connection, that enforces the caps when the connection is set up.
    func handler() -> ConnectionLimitHandler { ConnectionLimitHandler(limiter: self) }
}

/// Admits its connection under the ``ConnectionLimiter``'s caps, or closes it at once; releases it when it closes.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let limiter: ConnectionLimiter

    init(limiter: ConnectionLimiter) {
        self.limiter = limiter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let peer = context.channel.remoteAddress?.ipAddress
        guard limiter.admit(peer) else {
            context.close(promise: nil)
            return
        }
        let limiter = self.limiter
        context.channel.closeFuture.whenComplete { _ in limiter.release(peer) }
    }
}

/// Disconnects a TLS client that has not finished its handshake within `limit` of connecting.
final class HandshakeDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            deadline?.cancel()
            deadline = nil
        }
        context.fireUserInboundEventTriggered(event)
    }
}
