import NIOCore
import Synchronization

/// The browser connections open now: admits a new one only under the cap, and closes them all at shutdown.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Records `channel` and forgets it when it closes; false when the cap is reached.
    func admit(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let admitted = channels.withLock { open -> Bool in
            guard open.count < capacity else { return false }
            open[id] = channel
            return true
        }
        if admitted {
            channel.closeFuture.whenComplete { [self] _ in _ = channels.withLock { $0.removeValue(forKey: id) } }
        }
        return admitted
    }

    /// How many connections are open.
    var count: Int { channels.withLock { $0.count } }

    /// Closes every open connection.
    func closeAll() {
        let open = channels.withLock { Array($0.values) }
        for channel in open { channel.close(promise: nil) }
    }
}
