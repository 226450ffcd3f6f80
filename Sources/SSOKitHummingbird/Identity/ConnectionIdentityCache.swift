import NIOCore
import Synchronization

/// What each open connection proved, found once per connection instead of once per request: a connection's peer
/// credentials, client certificate and addresses are fixed when it is accepted (and, for TLS, when its handshake
/// ends), so every request on it has the same caller. The registry still decides, per request, what that caller
/// may do.
///
/// An entry lives while its connection is open: it is removed when the channel closes (the removal is registered
/// after the entry is stored, so it runs after it even for a connection that closed meanwhile). At most
/// ``capacity`` connections are remembered; beyond that, identities are found per request.
final class ConnectionIdentityCache: Sendable {
    static let capacity = 16_384
    private let entries = Mutex<[ObjectIdentifier: CallerIdentity?]>([:])

    /// The identity `channel`'s peer proves (``ConnectionIdentity/of(_:)``), remembered for the connection.
    func identity(of channel: any Channel) async -> CallerIdentity? {
        let key = ObjectIdentifier(channel)
        if let known = entries.withLock({ $0[key] }) { return known }
        let identity = await ConnectionIdentity.of(channel)
        let stored = entries.withLock { entries -> Bool in
            guard entries.count < Self.capacity else { return false }
            entries[key] = .some(identity)
            return true
        }
        if stored {
            channel.closeFuture.whenComplete { [self] _ in _ = entries.withLock { $0.removeValue(forKey: key) } }
        }
        return identity
    }

    /// How many connections are remembered.
    var count: Int { entries.withLock { $0.count } }
}
