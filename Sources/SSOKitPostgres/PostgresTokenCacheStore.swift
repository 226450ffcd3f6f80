import PostgresNIO
import SSOKitStore

/// A token-cache store in PostgreSQL, shared by every process that connects to the same database.
///
/// Every write returns only after its transaction committed. ``update(key:_:)`` locks the entry across processes
/// (a transaction-level advisory lock on the key, then `SELECT … FOR UPDATE`) and re-reads it inside the lock, so
/// two processes never spend one refresh token. Tables are prefixed `ssokit_` and migrated on connect.
///
/// ## Lifecycle
///
/// ``connect(url:leaseTimeout:)`` creates a pooled `PostgresClient`, starts the task that runs it (postgres-nio needs
/// `run()` running to hand out connections), and migrates the schema. Call ``shutdown()`` when done: it cancels
/// that task and waits until the pool has closed its connections; afterwards every call fails with
/// store_unavailable. A store released without ``shutdown()`` cancels the task when deinitialized.
///
/// Every failure is a `TokenCacheError` with code `store_unavailable` whose reason never
/// holds the password, a key or token bytes; only an `update` body's own errors pass through unchanged.
public actor PostgresTokenCacheStore: TokenCacheStore, RightRecordStore {
    let session: PostgresSession
    private let runner: Task<Void, Never>

    /// The schema version this code writes (in `ssokit_schema`).
    public static let schemaVersion = PostgresSchema.version

    private init(client: PostgresClient, leaseTimeout: Duration) {
        session = PostgresSession(client: client, leaseTimeout: leaseTimeout)
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    /// Connects to the database at `url` (`postgres://user[:password]@host[:port]/database`) and migrates it.
    ///
    /// A loopback host is reached in plain unless the URL says `sslmode=require` or `sslmode=verify-full`; any other
    /// host only over TLS with certificate and host-name verification (`sslmode=disable` is refused for it).
    ///
    /// - Parameters:
    ///   - url: The database, `postgres://user[:password]@host[:port]/database`, optionally with `?sslmode=`.
    ///   - leaseTimeout: How long any call waits for a connection before failing with store_unavailable (also the
    ///     timeout of each connection attempt).
    public static func connect(url: String, leaseTimeout: Duration = .seconds(10)) async throws(TokenCacheError)
        -> PostgresTokenCacheStore
    {
        try await connect(configuration: configuration(url: url), leaseTimeout: leaseTimeout)
    }

    /// Connects with a postgres-nio configuration (for pool sizes, custom TLS, a Unix socket) and migrates.
    ///
    /// - Parameters:
    ///   - configuration: The postgres-nio client configuration; its connect timeout is capped at `leaseTimeout`.
    ///   - leaseTimeout: How long any call waits for a connection before failing with store_unavailable.
    public static func connect(configuration: PostgresClient.Configuration, leaseTimeout: Duration = .seconds(10))
        async throws(TokenCacheError) -> PostgresTokenCacheStore
    {
        var configuration = configuration
        configuration.options.connectTimeout = min(configuration.options.connectTimeout, leaseTimeout)
        let store = PostgresTokenCacheStore(
            client: PostgresClient(configuration: configuration), leaseTimeout: leaseTimeout)
        do {
            try await PostgresSchema.migrate(store.session)
        } catch {
            await store.shutdown()
            throw PostgresFailure.storeUnavailable("migrating the cache database", error)
        }
        return store
    }

    /// The configuration ``connect(url:leaseTimeout:)`` would use, to adjust before
    /// ``connect(configuration:leaseTimeout:)``. Throws store_unavailable for a malformed URL or for a plain
    /// connection to a host that is not loopback.
    public static func configuration(url: String) throws(TokenCacheError) -> PostgresClient.Configuration {
        try PostgresConnectionURL.configuration(from: url)
    }

    /// Stops the connection pool and waits until it has closed. Calls made afterwards fail with store_unavailable.
    public func shutdown() async {
        runner.cancel()
        await runner.value
    }

    /// Runs `body`, reporting any failure but the store's own errors as store_unavailable for `operation`.
    func run<Result>(_ operation: String, _ body: () async throws -> Result) async throws(TokenCacheError) -> Result {
        do {
            return try await body()
        } catch {
            throw PostgresFailure.storeUnavailable(operation, error)
        }
    }
}
