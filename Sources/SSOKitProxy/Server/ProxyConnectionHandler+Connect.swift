import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

extension ProxyConnectionHandler {
    /// A CONNECT: terminated here when a prefix names the target (with TLS for an https prefix), a blind tunnel
    /// to an allowed port, 403 otherwise.
    func routeConnect(host: String, port: Int) {
        let router = shared.router
        if let origin = router.terminatedOrigin(host: host, port: port) {
            guard origin.scheme == "http" || shared.leaves != nil else { return reject(.certificateUnavailable) }
            state = .connecting(ConnectPlan(.terminate(origin)))
        } else if router.allowedPorts.contains(port) {
            state = .connecting(ConnectPlan(.tunnel(host: host, port: port)))
        } else {
            reject(.portNotAllowed)
        }
    }

    /// The CONNECT request has ended: obtains the leaf or opens the tunnel, then answers 200 and switches the
    /// connection over.
    func connect(_ plan: ConnectPlan) {
        guard let context else { return }
        plan.requestEnded = true
        switch plan.kind {
        case .terminate(let origin) where origin.scheme == "http":
            establish(plan) { [self] in terminate(origin: origin, tls: nil) }
        case .terminate(let origin):
            guard let leaves = shared.leaves else { return reject(.certificateUnavailable) }
            let host = origin.host
            context.eventLoop.makeFutureWithTask { try await leaves.context(for: host) }
                .assumeIsolated().whenComplete { [self] result in
                    guard isCurrent(plan) else { return }
                    switch result {
                    case .success(let tls): establish(plan) { [self] in terminate(origin: origin, tls: tls) }
                    case .failure: reject(.certificateUnavailable)
                    }
                }
        case .tunnel(let host, let port):
            let relay = TunnelRelay()
            let channel = OriginConnector.connectTunnel(
                host: host, port: port, relay: relay, limits: shared.limits, on: context.eventLoop)
            plan.peer = (relay, channel)
            channel.assumeIsolated().whenComplete { [self] result in
                guard isCurrent(plan) else { return }
                switch result {
                case .success:
                    shared.logger.info("proxy opened a tunnel", metadata: ["port": "\(port)"])
                    establish(plan) { [self] in switchToTunnel(relay) }
                case .failure(let error): reject(OriginConnector.rejection(for: error))
                }
            }
        }
    }

    private func isCurrent(_ plan: ConnectPlan) -> Bool {
        guard !plan.abandoned, case .connecting(let current) = state else { return false }
        return current === plan
    }

    /// Answers the CONNECT with 200 and, once that is written, runs `next`.
    private func establish(_ plan: ConnectPlan, then next: @escaping () -> Void) {
        guard let context else { return }
        let head = HTTPResponseHead(version: .http1_1, status: .ok)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { [self] result in
            guard isCurrent(plan) else { return }
            guard case .success = result else { return reject(.malformedRequest) }
            next()
        }
    }

    /// Replaces the HTTP handlers with one end of a blind tunnel joined to `peer`; bytes the browser sent after
    /// the CONNECT go through it first.
    private func switchToTunnel(_ peer: TunnelRelay) {
        guard let context else { return }
        let pipeline = context.pipeline.syncOperations
        let local = TunnelRelay()
        let idle = IdleStateHandler(allTimeout: TimeAmount(shared.limits.idleTimeout))
        do {
            try pipeline.addHandler(idle, position: .after(codec.decoder))
            try pipeline.addHandler(local, position: .after(idle))
        } catch {
            return reject(.originFailed)
        }
        state = .closing
        local.pair(with: peer)
        leavePipeline(context)
    }

    /// Serves the requests inside the tunnel with a new codec and handler for `origin`, behind TLS with `tls`
    /// (the leaf for an https origin) or in clear (an http origin).
    private func terminate(origin: ProxyOrigin, tls: NIOSSLContext?) {
        guard let context else { return }
        let pipeline = context.pipeline.syncOperations
        let innerCodec = ServerCodec(limits: shared.limits)
        let inner = ProxyConnectionHandler(shared: shared, codec: innerCodec, tunnelOrigin: origin)
        do {
            if let tls {
                let tlsHandler = NIOSSLServerHandler(context: tls)
                try pipeline.addHandler(tlsHandler, position: .after(codec.decoder))
                try innerCodec.add(to: pipeline, after: tlsHandler)
            } else {
                try innerCodec.add(to: pipeline, after: codec.decoder)
            }
            try pipeline.addHandler(inner, position: .after(innerCodec.decoder))
        } catch {
            return reject(.certificateUnavailable)
        }
        state = .closing
        leavePipeline(context)
    }

    /// Removes the codec (its leftover bytes go to the handlers just added) and this handler, then reads again.
    private func leavePipeline(_ context: ChannelHandlerContext) {
        let channel = context.channel
        let pipeline = context.pipeline.syncOperations
        codec.remove(from: pipeline)
        pipeline.removeHandler(context: context, promise: nil)
        channel.read()
    }
}
