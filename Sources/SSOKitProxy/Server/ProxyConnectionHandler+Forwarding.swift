import Logging
import NIOCore
import NIOHTTP1

extension ProxyConnectionHandler {
    /// Relays `request` to its origin: streaming its body from the browser, or sending `body` when it was read
    /// already (an intercepted request passed through).
    func startForwarding(_ request: ProxiedRequest, body: ByteBuffer?) {
        guard let context else { return }
        let exchange = ForwardExchange(
            id: generation, request: request, maxPendingBytes: shared.limits.maximumPendingForwardBytes)
        let framing: ForwardedMessages.RequestBody =
            body.map { .buffered(count: $0.readableBytes) } ?? .streamed(request.bodyFraming)
        exchange.send(
            .head(
                ForwardedMessages.originRequestHead(
                    for: request, body: framing, withoutCookies: shared.privateCookieNamePrefixes)))
        if let body {
            if body.readableBytes > 0 { exchange.send(.body(.byteBuffer(body))) }
            exchange.requestComplete = true
            exchange.send(.end(nil))
        }
        state = .forwarding(exchange)
        let relay = OriginRelayHandler(owner: self, exchangeID: exchange.id)
        OriginConnector.connectHTTP(to: request.origin, relay: relay, shared: shared, on: context.eventLoop)
            .assumeIsolated().whenComplete { [self] result in
                switch result {
                case .success(let channel):
                    guard !exchange.abandoned, case .forwarding(let current) = state, current === exchange else {
                        return channel.close(promise: nil)
                    }
                    exchange.connected(relay)
                    resumeReadsIfWanted()
                case .failure(let error):
                    guard !exchange.abandoned, case .forwarding(let current) = state, current === exchange else {
                        return
                    }
                    reject(OriginConnector.rejection(for: error))
                }
            }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .forwarding(let exchange) = state { exchange.relay?.flush() }
        context.fireChannelReadComplete()
    }

    /// Whether the browser connection takes more bytes without queueing.
    var browserIsWritable: Bool { context?.channel.isWritable ?? false }

    func flushToBrowser() { context?.flush() }

    /// A response part from the origin of exchange `exchangeID`.
    func originReceived(_ part: HTTPClientResponsePart, exchangeID: Int) {
        guard let context, case .forwarding(let exchange) = state, exchange.id == exchangeID else { return }
        switch part {
        case .head(let head) where head.status == .switchingProtocols:
            reject(.originFailed)
        case .head(let head) where head.status.code < 200:
            context.write(wrapOutboundOut(.head(ForwardedMessages.informationalHead(from: head))), promise: nil)
        case .head(let head):
            let (answer, closeAfter) = ForwardedMessages.clientResponseHead(from: head, for: exchange.request)
            exchange.responseStarted = true
            exchange.closeAfter = closeAfter
            shared.logger.info(
                "proxy forwarded a request",
                metadata: [
                    "method": "\(exchange.request.head.method)", "origin": "\(exchange.request.origin)",
                    "status": "\(head.status.code)",
                ])
            context.write(wrapOutboundOut(.head(answer)), promise: nil)
        case .body(let bytes):
            guard !exchange.request.expectsNoResponseBody else { return }
            context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        case .end(let trailers):
            let keepAlive = !exchange.closeAfter && exchange.requestComplete
            exchange.abandon()
            state = .responding
            context.writeAndFlush(wrapOutboundOut(.end(trailers))).assumeIsolated().whenComplete { [self] result in
                if case .failure = result { return finishExchange(keepAlive: false) }
                finishExchange(keepAlive: keepAlive)
            }
        }
    }

    /// The origin of exchange `exchangeID` closed before its response ended.
    func originClosed(exchangeID: Int) {
        originFailed(timedOut: false, exchangeID: exchangeID)
    }

    /// The origin connection of exchange `exchangeID` failed (TLS, a malformed response) or went idle.
    func originFailed(timedOut: Bool, exchangeID: Int) {
        guard case .forwarding(let exchange) = state, exchange.id == exchangeID else { return }
        reject(timedOut ? .originTimeout : .originFailed)
    }
}
