import CPeerCredentials
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// The peer's credentials on an accepted Unix domain socket, as the kernel recorded them at `connect` time
/// (`SO_PEERCRED`, unix(7)): what a peer cannot forge, unlike anything it sends.
enum PeerCredentials {
    /// The peer's uid, or nil when `channel` is not a socket the kernel can answer for (or on a system without
    /// `SO_PEERCRED`).
    static func uid(of channel: any Channel) async -> UInt32? {
        #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider else { return nil }
            let credentials: EventLoopFuture<ssokit_peer_credentials> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
            guard let value = try? await credentials.get(), value.pid > 0 else { return nil }
            return value.uid
        #else
            return nil
        #endif
    }
}
