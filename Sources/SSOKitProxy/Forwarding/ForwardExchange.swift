import NIOCore
import NIOHTTP1

/// One request relayed to its origin: what waits to be sent while the connection opens, and how far each
/// direction has got. Lives on the browser connection's event loop, like the origin connection it drives.
final class ForwardExchange {
    let id: Int
    let request: ProxiedRequest
    private let maxPendingBytes: Int
    private(set) var relay: OriginRelayHandler?
    private var pending: [HTTPClientRequestPart] = []
    private var pendingBytes = 0
    private(set) var abandoned = false
    /// The browser's request has ended.
    var requestComplete = false
    /// The origin's final response head went to the browser.
    var responseStarted = false
    /// The browser connection must close after this response.
    var closeAfter = false

    init(id: Int, request: ProxiedRequest, maxPendingBytes: Int) {
        self.id = id
        self.request = request
        self.maxPendingBytes = maxPendingBytes
    }

    /// Sends a request part to the origin, or keeps it until the connection is open.
    func send(_ part: HTTPClientRequestPart) {
        if let relay {
            relay.write(part)
            return
        }
        if case .body(.byteBuffer(let bytes)) = part { pendingBytes += bytes.readableBytes }
        pending.append(part)
    }

    /// Whether more body may be read from the browser: the origin keeps up, or little is waiting for it.
    var acceptsMoreBody: Bool {
        if let relay { return relay.isWritable }
        return pendingBytes < maxPendingBytes
    }

    /// The origin connection is open: sends what waited.
    func connected(_ relay: OriginRelayHandler) {
        self.relay = relay
        for part in pending { relay.write(part) }
        pending = []
        pendingBytes = 0
        relay.flush()
    }

    /// The exchange is over or given up: the origin connection closes and its late events are ignored.
    func abandon() {
        abandoned = true
        pending = []
        relay?.detachAndClose()
        relay = nil
    }
}
