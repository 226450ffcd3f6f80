import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// A request under a prefix whose body is being read.
final class InterceptionDraft {
    let request: ProxiedRequest
    let prefix: InterceptPrefix
    var body: ByteBuffer

    init(request: ProxiedRequest, prefix: InterceptPrefix, body: ByteBuffer) {
        self.request = request
        self.prefix = prefix
        self.body = body
    }
}

extension ProxyConnectionHandler {
    /// Starts reading an intercepted request's body, refusing at once a declared length over the cap.
    func startCollecting(_ request: ProxiedRequest, prefix: InterceptPrefix) {
        guard let context else { return }
        let cap = shared.limits.maximumInterceptedBodyBytes
        if case .length(let length) = request.bodyFraming, length > cap { return reject(.bodyTooLarge) }
        state = .collecting(
            InterceptionDraft(request: request, prefix: prefix, body: context.channel.allocator.buffer(capacity: 0)))
        arm(after: shared.limits.interceptedBodyTimeout, rejecting: .requestTimeout)
        if request.head.version.minor >= 1,
            request.head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" })
        {
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
        }
    }

    /// Adds body bytes, refusing a body that grows over the cap.
    func collect(_ bytes: ByteBuffer, into draft: InterceptionDraft) {
        guard draft.body.readableBytes + bytes.readableBytes <= shared.limits.maximumInterceptedBodyBytes else {
            return reject(.bodyTooLarge)
        }
        var bytes = bytes
        draft.body.writeBuffer(&bytes)
    }

    /// Hands the complete request to the interceptor and applies its decision, or answers 504 when it takes
    /// longer than the limit.
    func decide(_ draft: InterceptionDraft) {
        guard let context else { return }
        let body = Array(draft.body.readableBytesView)
        guard
            let request = InterceptionMessages.interceptedRequest(
                draft.request, body: body, prefix: draft.prefix, throughTLS: tunnelOrigin?.scheme == "https")
        else { return reject(.malformedRequest) }
        state = .deciding
        arm(after: shared.limits.decisionTimeout, rejecting: .decisionTimeout)
        let interceptor = shared.interceptor
        let decided = generation
        context.eventLoop.makeFutureWithTask { await interceptor.intercept(request) }
            .assumeIsolated().whenSuccess { [self] decision in
                guard decided == generation, case .deciding = state else { return }
                cancelTimer()
                apply(decision, to: draft)
            }
    }

    private func apply(_ decision: InterceptionDecision, to draft: InterceptionDraft) {
        guard let (response, body) = decision.response else {
            return startForwarding(draft.request, body: draft.body)
        }
        respond(response, body: body, to: draft.request)
    }

    /// Writes the interceptor's answer; the connection stays if the browser wants it.
    private func respond(_ response: HTTPResponse, body: [UInt8], to request: ProxiedRequest) {
        guard let context else { return }
        state = .responding
        let head = InterceptionMessages.responseHead(response, bodyLength: body.count, for: request)
        shared.logger.info(
            "proxy intercepted a request",
            metadata: [
                "method": "\(request.head.method)", "origin": "\(request.origin)", "status": "\(head.status.code)",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !body.isEmpty, head.status.mayHaveResponseBody, !request.expectsNoResponseBody {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let keepAlive = request.keepsConnection
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { [self] result in
            if case .failure = result { return finishExchange(keepAlive: false) }
            finishExchange(keepAlive: keepAlive)
        }
    }
}
