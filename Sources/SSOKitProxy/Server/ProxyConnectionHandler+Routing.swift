import NIOCore
import NIOHTTP1

extension ProxyConnectionHandler {
    /// Decides where a request goes: CONNECT to a tunnel or to TLS termination, a request under a prefix to the
    /// interceptor, anything else to its origin; refuses what it cannot or may not do.
    func route(_ head: HTTPRequestHead) {
        cancelTimer()
        generation += 1
        guard clientAdmitted else { return reject(.clientNotPermitted) }
        guard
            head.uri.utf8.count + head.headers.reduce(0, { $0 + $1.name.utf8.count + $1.value.utf8.count })
                <= shared.limits.maximumHeaderBytes
        else { return reject(.headerTooLarge) }
        guard let target = RequestTarget(uri: head.uri, method: head.method) else {
            return reject(head.uri.hasPrefix("/") || head.method == .CONNECT ? .malformedRequest : .notAProxyRequest)
        }
        switch (target, tunnelOrigin) {
        case (.authority(let host, let port), nil):
            routeConnect(host: host, port: port)
        case (.authority, .some):
            reject(.malformedRequest)
        case (.originForm, nil):
            reject(.notAProxyRequest)
        case (.originForm(let pathAndQuery), .some(let origin)):
            guard hostFieldNames(origin, in: head) else { return reject(.misdirected) }
            routeRequest(ProxiedRequest(head: head, origin: origin, pathAndQuery: pathAndQuery))
        case (.absolute(let origin, let pathAndQuery), let tunnel):
            guard tunnel == nil || tunnel == origin else { return reject(.misdirected) }
            routeRequest(ProxiedRequest(head: head, origin: origin, pathAndQuery: pathAndQuery))
        }
    }

    /// A request under a prefix goes to the interceptor (its body read first), any other to its origin.
    private func routeRequest(_ request: ProxiedRequest) {
        let router = shared.router
        if let prefix = router.prefix(for: request.origin, path: request.path) {
            return startCollecting(request, prefix: prefix)
        }
        guard
            tunnelOrigin != nil
                || router.mayConnect(
                    scheme: request.origin.scheme, host: request.origin.host, port: request.origin.port)
        else { return reject(.portNotAllowed) }
        startForwarding(request, body: nil)
    }

    /// Inside a terminated tunnel, `Host` (when present) must name the tunnel's own origin.
    private func hostFieldNames(_ origin: ProxyOrigin, in head: HTTPRequestHead) -> Bool {
        let values = head.headers["host"]
        guard let value = values.first else { return true }
        guard values.count == 1, let (host, port) = RequestTarget.hostAndPort(Substring(value)),
            let named = ProxyOrigin(scheme: origin.scheme, host: host, port: port)
        else { return false }
        return named == origin
    }
}
