import Logging
import SSOKitProxy

/// Who may use `ssokit serve`'s intercepting proxy: the local users the server acts for. The proxy answers with
/// the server's single sign-on, so a browser connection is served only when it comes from the server's own uid or
/// from a uid that the ``CallerRegistry`` lets act as the browser's bundle identifier. Every other client, and a
/// client whose uid cannot be determined, is refused (403 for every request, intercepted or not), and logged.
public struct LocalUserProxyAdmission: ProxyClientAdmission {
    private let serverUID: UInt32
    private let registry: CallerRegistry
    private let browserBundleIdentifier: String
    private let logger: Logger
    private let owner: @Sendable (ProxyClientConnection) async -> UInt32?

    /// Admits `serverUID` and the uids that `registry` lets act as `browserBundleIdentifier`; `owner` finds a
    /// connection's uid (by default from the kernel's socket tables).
    public init(
        serverUID: UInt32, registry: CallerRegistry, browserBundleIdentifier: String, logger: Logger,
        owner: @escaping @Sendable (ProxyClientConnection) async -> UInt32? = { LoopbackSocketOwner.uid(of: $0) }
    ) {
        self.serverUID = serverUID
        self.registry = registry
        self.browserBundleIdentifier = browserBundleIdentifier
        self.logger = logger
        self.owner = owner
    }

    public func admits(_ connection: ProxyClientConnection) async -> Bool {
        guard let uid = await owner(connection) else {
            logger.warning("proxy client refused", metadata: ["caller": "unknown"])
            return false
        }
        let caller = CallerIdentity.localUser(uid: uid)
        guard uid == serverUID || registry.permits(caller, application: browserBundleIdentifier) else {
            logger.warning("proxy client refused", metadata: ["caller": "\(caller)"])
            return false
        }
        logger.debug("proxy client admitted", metadata: ["caller": "\(caller)"])
        return true
    }
}
