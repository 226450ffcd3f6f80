import NIOCore
import Synchronization

/// Asks the host's ``ProxyClientAdmission`` about a new connection, within the head timeout.
enum ClientAdmissionCheck {
    /// True when the proxy serves the client on `channel`: always without a hook; with one, its answer, or false
    /// when the addresses are unknown or the answer does not come within ``ProxyLimits/admissionTimeout``.
    static func decide(for channel: any Channel, shared: ProxyShared) -> EventLoopFuture<Bool> {
        let eventLoop = channel.eventLoop
        guard let admission = shared.admission else { return eventLoop.makeSucceededFuture(true) }
        guard let client = channel.remoteAddress, let clientHost = client.ipAddress, let clientPort = client.port,
            let proxy = channel.localAddress, let proxyHost = proxy.ipAddress, let proxyPort = proxy.port
        else { return eventLoop.makeSucceededFuture(false) }
        let connection = ProxyClientConnection(
            clientHost: clientHost, clientPort: clientPort, proxyHost: proxyHost, proxyPort: proxyPort)
        let promise = eventLoop.makePromise(of: Bool.self)
        let settled = Settled()
        let settle: @Sendable (Bool) -> Void = { admitted in
            if settled.first() { promise.succeed(admitted) }
        }
        let timer = eventLoop.scheduleTask(in: TimeAmount(shared.limits.admissionTimeout)) { settle(false) }
        Task {
            let admitted = await admission.admits(connection)
            timer.cancel()
            settle(admitted)
        }
        return promise.futureResult
    }
}

/// Lets only the first of the answer and the timer settle the decision.
private final class Settled: Sendable {
    private let done = Mutex(false)

    /// True the first time only.
    func first() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
