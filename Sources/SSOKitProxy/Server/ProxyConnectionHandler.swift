import Logging
import NIOCore
import NIOHTTP1

/// One browser connection to the proxy, or one TLS tunnel the proxy terminated: reads each request, routes it to
/// the interceptor, an origin or a tunnel, and writes one answer per request, in order.
///
/// Requests are handled one at a time. Reading pauses while an answer is being produced, and parts that a
/// pipelining browser sent early wait in `deferred` (at most one read's worth) until the answer is complete.
final class ProxyConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    enum State {
        /// Between requests: the next head must arrive before the head timer fires.
        case awaitingHead
        /// Reading the body of an intercepted request into memory.
        case collecting(InterceptionDraft)
        /// The interceptor is deciding.
        case deciding
        /// Relaying to and from an origin.
        case forwarding(ForwardExchange)
        /// A CONNECT is being answered; the tunnel or TLS is set up once it ends.
        case connecting(ConnectPlan)
        /// An answer of the proxy's own is being written; the connection may stay.
        case responding
        /// The connection is closing; everything inbound is dropped.
        case closing
    }

    let shared: ProxyShared
    let codec: ServerCodec
    /// The https origin of the terminated tunnel this handler serves, nil on the plain connection.
    let tunnelOrigin: ProxyOrigin?
    /// Whether the host's ``ProxyClientAdmission`` admitted the client; every request of a refused one gets 403.
    let clientAdmitted: Bool

    var context: ChannelHandlerContext?
    var state: State = .awaitingHead
    /// Counts requests, so that late callbacks for an earlier one are ignored.
    var generation = 0
    var deferred: [HTTPServerRequestPart] = []
    var deferredError: (any Error)?
    var readHeld = false
    var timer: Scheduled<Void>?

    init(shared: ProxyShared, codec: ServerCodec, tunnelOrigin: ProxyOrigin? = nil, clientAdmitted: Bool = true) {
        self.shared = shared
        self.codec = codec
        self.tunnelOrigin = tunnelOrigin
        self.clientAdmitted = clientAdmitted
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { armHeadTimer() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        armHeadTimer()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        abandonExchange()
        state = .closing
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .closing = state { return }
        guard acceptsInbound else {
            deferred.append(part)
            return
        }
        handle(part)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            // TLS failures (a browser that does not trust the authority) and socket errors: nothing to answer.
            abandonExchange()
            state = .closing
            context.close(promise: nil)
            return
        }
        if case .closing = state { return }
        guard acceptsInbound else {
            deferredError = error
            return
        }
        reject(error as? HTTPParserError == .headerOverflow ? .headerTooLarge : .malformedRequest)
    }

    func read(context: ChannelHandlerContext) {
        if wantsInbound {
            context.read()
        } else {
            readHeld = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if case .forwarding(let exchange) = state { exchange.relay?.resumeReadsIfWanted() }
        context.fireChannelWritabilityChanged()
    }

    /// Dispatches one request part in the current state.
    func handle(_ part: HTTPServerRequestPart) {
        switch (part, state) {
        case (.head(let head), .awaitingHead):
            route(head)
        case (.body(let bytes), .collecting(let draft)):
            collect(bytes, into: draft)
        case (.end, .collecting(let draft)):
            decide(draft)
        case (.body(let bytes), .forwarding(let exchange)):
            exchange.send(.body(.byteBuffer(bytes)))
        case (.end(let trailers), .forwarding(let exchange)):
            exchange.requestComplete = true
            exchange.send(.end(trailers))
        case (.end, .connecting(let plan)):
            connect(plan)
        case (.body, .connecting):
            break
        default:
            reject(.malformedRequest)
        }
    }

    /// Whether a request part may be handled now rather than deferred.
    var acceptsInbound: Bool {
        switch state {
        case .awaitingHead, .collecting, .connecting: return true
        case .forwarding(let exchange): return !exchange.requestComplete
        case .deciding, .responding, .closing: return false
        }
    }

    /// Whether reading from the socket should go on.
    var wantsInbound: Bool {
        guard deferred.isEmpty else { return false }
        switch state {
        case .awaitingHead, .collecting: return true
        case .forwarding(let exchange): return !exchange.requestComplete && exchange.acceptsMoreBody
        case .connecting(let plan): return !plan.requestEnded
        case .deciding, .responding, .closing: return false
        }
    }

    /// Reads again if a read was held and reading is wanted now.
    func resumeReadsIfWanted() {
        guard readHeld, wantsInbound, let context else { return }
        readHeld = false
        context.read()
    }

    /// Ends the current exchange: the connection closes, or waits for the next request (handling any that a
    /// pipelining browser already sent).
    func finishExchange(keepAlive: Bool) {
        guard let context else { return }
        if case .closing = state { return }
        guard keepAlive else {
            state = .closing
            context.close(promise: nil)
            return
        }
        state = .awaitingHead
        armHeadTimer()
        while !deferred.isEmpty, acceptsInbound {
            handle(deferred.removeFirst())
        }
        if let error = deferredError, acceptsInbound {
            deferredError = nil
            errorCaught(context: context, error: error)
            return
        }
        resumeReadsIfWanted()
    }

    /// Answers with `rejection` and closes the connection; when an origin's answer has already begun, only closes.
    func reject(_ rejection: ProxyRejection) {
        guard let context else { return }
        cancelTimer()
        let answerStarted: Bool
        if case .forwarding(let exchange) = state {
            answerStarted = exchange.responseStarted
        } else {
            answerStarted = false
        }
        abandonExchange()
        state = .closing
        shared.logger.info(
            "proxy refused a request", metadata: ["status": "\(rejection.status.code)", "error": "\(rejection.code)"])
        guard !answerStarted else {
            context.close(promise: nil)
            return
        }
        let body = context.channel.allocator.buffer(string: rejection.body)
        context.write(wrapOutboundOut(.head(rejection.head(bodyLength: body.readableBytes))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// Lets go of an origin exchange or a pending tunnel, closing their connections.
    func abandonExchange() {
        switch state {
        case .forwarding(let exchange): exchange.abandon()
        case .connecting(let plan): plan.abandon()
        default: break
        }
    }

    /// Starts the timer for the next request head: a slow or silent browser gets 408.
    func armHeadTimer() {
        arm(after: shared.limits.requestHeadTimeout, rejecting: .requestTimeout)
    }

    /// Starts a timer that rejects the current request with `rejection` unless something else happens first.
    func arm(after duration: Duration, rejecting rejection: ProxyRejection) {
        cancelTimer()
        guard let context else { return }
        let armedFor = generation
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) { [self] in
            guard armedFor == generation else { return }
            timer = nil
            reject(rejection)
        }
    }

    func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}
