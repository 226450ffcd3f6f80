import SSOKitHummingbird
import Synchronization

/// Every request the demo's proxy handed to the extension, in order, for the demo's report and its tests.
final class DemoExchangeLog: Sendable {
    private let entries = Mutex<[AdapterProxyInterceptor.Exchange]>([])

    func record(_ exchange: AdapterProxyInterceptor.Exchange) {
        entries.withLock { $0.append(exchange) }
    }

    /// Every exchange so far, oldest first; `since` skips the first ones.
    func exchanges(since start: Int = 0) -> [AdapterProxyInterceptor.Exchange] {
        entries.withLock { Array($0.dropFirst(start)) }
    }

    var count: Int { entries.withLock { $0.count } }
}
