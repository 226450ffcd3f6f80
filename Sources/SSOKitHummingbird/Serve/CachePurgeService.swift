import Logging
import SSOKitCore
import SSOKitTokenCache
import ServiceLifecycle

/// Removes the token cache's expired entries and one-time values (pending interactions and their owners, logins
/// in flight, replay records) every `interval`, until the service group shuts down: without it a long-running
/// server keeps every expired row.
public struct CachePurgeService: Service {
    let cache: TokenCache
    let interval: Duration
    let logger: Logger

    /// A service purging `cache` every `interval` (a minute by default).
    public init(cache: TokenCache, interval: Duration = .seconds(60), logger: Logger) {
        self.cache = cache
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        while true {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            await purge()
        }
    }

    /// One purge; a failure is logged and the next one tries again.
    func purge() async {
        do {
            let removed = try await cache.purgeExpired(application: nil)
            if removed > 0 { logger.debug("purged expired entries", metadata: ["removed": "\(removed)"]) }
        } catch {
            logger.warning("purging the cache failed", metadata: ["error": "\(Self.code(of: error))"])
        }
    }

    private static func code(of error: some SSOKitError) -> String { "\(error.code)" }
}
