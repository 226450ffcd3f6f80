import Logging
import PostgresNIO
import SSOKitStore

/// The store's way to the database: pooled connections with a deadline on getting one, and transactions that
/// commit before returning and roll back on any error.
struct PostgresSession: Sendable {
    let client: PostgresClient
    /// How long a call waits for a pooled connection (the pool retries an unreachable server without end).
    let leaseTimeout: Duration
    let logger = Logger(label: "ssokit.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` on a pooled connection, in the caller's task and isolation. When no connection comes within
    /// ``leaseTimeout`` (server unreachable, pool exhausted) fails with store_unavailable; once `body` has started,
    /// the deadline no longer applies.
    func withConnection<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let handoff = ConnectionHandoff()
        let client = client
        let holder = Task {
            do {
                try await client.withConnection { connection in
                    guard handoff.offer(connection) else { return }
                    await handoff.waitForReturn()
                }
            } catch {
                _ = handoff.fail(error)
            }
        }
        let timeout = leaseTimeout
        let watchdog = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            let expired = TokenCacheError(
                .storeUnavailable, "no connection to the PostgreSQL server within \(timeout)")
            if handoff.fail(expired) { holder.cancel() }
        }
        defer { watchdog.cancel() }
        let connection = try await withTaskCancellationHandler {
            try await handoff.take()
        } onCancel: {
            if handoff.fail(CancellationError()) { holder.cancel() }
        }
        defer { handoff.giveBack() }
        return try await body(connection)
    }

    /// Runs `body` inside `BEGIN ISOLATION LEVEL READ COMMITTED … COMMIT` on one connection; returns only after the
    /// commit. Any error rolls back (a connection that cannot roll back is closed, never reused mid-transaction)
    /// and is rethrown as it is.
    func transaction<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = logger
        return try await withConnection { connection in
            try await connection.query("BEGIN ISOLATION LEVEL READ COMMITTED", logger: logger)
            do {
                let result = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                do {
                    try await connection.query("ROLLBACK", logger: logger)
                } catch {
                    try? await connection.close()
                }
                throw error
            }
        }
    }

    /// Runs one query outside a transaction and collects its rows (for reads).
    func rows(isolation: isolated (any Actor)? = #isolation, _ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = logger
        return try await withConnection { connection in
            try await connection.query(query, logger: logger).collect()
        }
    }
}
