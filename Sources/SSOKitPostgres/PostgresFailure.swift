import PostgresNIO
import SSOKitStore

/// Maps what postgres-nio throws to `store_unavailable`, with a reason safe to log: the
/// operation, the kind of failure and, for a server error, its SQLSTATE code. Never the query's bound values (keys,
/// sealed bytes), the server's message text (which can quote values) nor the password.
enum PostgresFailure {
    static func storeUnavailable(_ operation: String, _ error: any Error) -> TokenCacheError {
        if let error = error as? TokenCacheError { return error }
        if let error = error as? PSQLError {
            if error.code == .server {
                let state = error.serverInfo?[.sqlState] ?? "unknown"
                return TokenCacheError(.storeUnavailable, "\(operation) failed: PostgreSQL error SQLSTATE \(state)")
            }
            return TokenCacheError(.storeUnavailable, "\(operation) failed: \(error.code)")
        }
        if error is PostgresDecodingError {
            return TokenCacheError(.storeUnavailable, "\(operation) failed: a column has an unexpected type")
        }
        if error is CancellationError {
            return TokenCacheError(.storeUnavailable, "\(operation) was cancelled")
        }
        return TokenCacheError(.storeUnavailable, "\(operation) failed: \(type(of: error))")
    }
}

/// Carries an error thrown by the caller's `update` body through the transaction, so that it reaches the caller
/// unchanged instead of being reported as a store failure.
struct BodyFailure: Error {
    let error: any Error
}
