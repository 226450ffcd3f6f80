import SSOKitProxy
import ServiceLifecycle

/// A started `InterceptingProxy` as a service of the server's group: it runs until the group shuts
/// down gracefully, then closes its listener and connections.
public struct InterceptingProxyService: Service {
    let proxy: InterceptingProxy

    /// A service for the running `proxy`.
    public init(_ proxy: InterceptingProxy) {
        self.proxy = proxy
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await proxy.shutdown()
    }
}
