import Crypto
import Foundation
import Hummingbird
import NIOCore
import NIOSSL
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
    /// The connection says: the peer uid of a Unix domain socket (`SO_PEERCRED`), the client certificate of a
    /// mutual-TLS connection (its DER's SHA-256), or ``CallerIdentity/loopback`` for plain TCP between two loopback
    /// addresses. Anything else (plain TCP from another host, TLS without a client certificate) is not identified.
    /// What a connection proves is found on its first request and kept while it stays open.
    public static var connection: Self {
        let cache = ConnectionIdentityCache()
        return Self { _, context in await cache.identity(of: context.channel) }
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
            // A TLS connection is known by its client certificate only, never by its address.
            // (Asking a channel without TLS fails: no TLS handler.)
            do {
                let certificate = try await channel.nioSSL_peerCertificate().get()
                guard let certificate, let der = try? certificate.toDERBytes() else { return nil }
                return .clientCertificate(sha256: SHA256.hash(data: der).map { String(format: "%02x", $0) }.joined())
            } catch {}
            guard let local = channel.localAddress?.ipAddress, let remote = channel.remoteAddress?.ipAddress,
                EndpointSecurity.isLoopback(host: local), EndpointSecurity.isLoopback(host: remote)
            else { return nil }
            return .loopback
        case nil:
            return nil
        }
    }
}
