import Hummingbird
import NIOCore
import SSOKitCore

/// How the app API learns who is calling a route. Production code uses ``connection``; a test or a service with
/// its own authentication may supply another resolver, which must prove identity the same way (never from the
/// request body).
public struct CallerIdentification<Context: RequestContext>: Sendable {
    let resolve: @Sendable (Request, Context) async -> CallerIdentity?

    /// A resolver; nil means the caller is not identified (403).
    public init(_ resolve: @escaping @Sendable (Request, Context) async -> CallerIdentity?) {
        self.resolve = resolve
    }
}

extension CallerIdentification where Context: ConnectionRequestContext {
    /// The connection says: the peer uid of a Unix domain socket (`SO_PEERCRED`), or ``CallerIdentity/loopback``
    /// for plain TCP between two loopback addresses. Anything else (TCP from another host) is not identified.
    public static var connection: Self {
        Self { _, context in await ConnectionIdentity.of(context.channel) }
    }
}

/// The identity an accepted connection proves.
public enum ConnectionIdentity {
    /// The identity of `channel`'s peer (see ``CallerIdentification/connection``).
    public static func of(_ channel: any Channel) async -> CallerIdentity? {
        switch channel.localAddress {
        case .unixDomainSocket?:
            return await PeerCredentials.uid(of: channel).map { .localUser(uid: $0) }
        case .v4?, .v6?:
            guard let local = channel.localAddress?.ipAddress, let remote = channel.remoteAddress?.ipAddress,
                EndpointSecurity.isLoopback(host: local), EndpointSecurity.isLoopback(host: remote)
            else { return nil }
            return .loopback
        case nil:
            return nil
        }
    }
}
