import NIOCore
import NIOSSL

/// A CONNECT being answered: a blind tunnel to a host, or TLS terminated here for an intercepted origin.
final class ConnectPlan {
    enum Kind {
        case tunnel(host: String, port: Int)
        case terminate(ProxyOrigin)
    }

    let kind: Kind
    /// The CONNECT request has ended (its `.end` was read).
    var requestEnded = false
    /// The target's end of a tunnel while it is being opened.
    var peer: (relay: TunnelRelay, channel: EventLoopFuture<any Channel>)?
    private(set) var abandoned = false

    init(_ kind: Kind) { self.kind = kind }

    func abandon() {
        abandoned = true
        peer?.relay.close()
        peer?.channel.whenSuccess { $0.close(promise: nil) }
    }
}
