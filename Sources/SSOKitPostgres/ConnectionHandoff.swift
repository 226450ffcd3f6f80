import PostgresNIO
import Synchronization

/// Hands one pooled connection from the task that leases it (the holder, which keeps the lease open) to the caller
/// that uses it (the borrower), so that the wait for the lease can be abandoned at a deadline without cancelling
/// the caller, and the caller's work runs in its own task and isolation.
///
/// Exactly one of ``offer(_:)`` (the lease came) and ``fail(_:)`` (the lease failed, the deadline passed or the
/// borrower was cancelled) wins; once the connection is lent, nothing can take it back before ``giveBack()``.
final class ConnectionHandoff: Sendable {
    private enum State {
        case empty
        case borrowerWaiting(CheckedContinuation<PostgresConnection, any Error>)
        case offered(PostgresConnection)
        case lent
        case failed(any Error)
    }

    private enum Return {
        case pending
        case holderWaiting(CheckedContinuation<Void, Never>)
        case returned
    }

    private let state = Mutex(State.empty)
    private let returned = Mutex(Return.pending)

    /// Holder: offers the leased connection; false when the borrower has given up (release the lease at once).
    func offer(_ connection: PostgresConnection) -> Bool {
        let outcome: (accepted: Bool, waiter: CheckedContinuation<PostgresConnection, any Error>?) = state.withLock {
            switch $0 {
            case .empty:
                $0 = .offered(connection)
                return (true, nil)
            case .borrowerWaiting(let waiter):
                $0 = .lent
                return (true, waiter)
            case .offered, .lent, .failed:
                return (false, nil)
            }
        }
        outcome.waiter?.resume(returning: connection)
        return outcome.accepted
    }

    /// Ends the wait with `error` unless a connection was already offered; returns whether it did (then cancel the
    /// holder so that the pool drops its request).
    func fail(_ error: any Error) -> Bool {
        let outcome: (failed: Bool, waiter: CheckedContinuation<PostgresConnection, any Error>?) = state.withLock {
            switch $0 {
            case .empty:
                $0 = .failed(error)
                return (true, nil)
            case .borrowerWaiting(let waiter):
                $0 = .failed(error)
                return (true, waiter)
            case .offered, .lent, .failed:
                return (false, nil)
            }
        }
        outcome.waiter?.resume(throwing: error)
        return outcome.failed
    }

    /// Borrower: the connection once offered, or the error that ended the wait. Call once.
    func take() async throws -> PostgresConnection {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<PostgresConnection, any Error>? = state.withLock {
                switch $0 {
                case .empty:
                    $0 = .borrowerWaiting(continuation)
                    return nil
                case .offered(let connection):
                    $0 = .lent
                    return .success(connection)
                case .failed(let error):
                    return .failure(error)
                case .borrowerWaiting, .lent:
                    return .failure(CancellationError())
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Borrower: done with the connection; the holder may release the lease.
    func giveBack() {
        let waiter: CheckedContinuation<Void, Never>? = returned.withLock { state in
            var waiter: CheckedContinuation<Void, Never>?
            if case .holderWaiting(let holder) = state { waiter = holder }
            state = .returned
            return waiter
        }
        waiter?.resume()
    }

    /// Holder: waits, ignoring cancellation, until the borrower gave the connection back.
    func waitForReturn() async {
        await withCheckedContinuation { continuation in
            let done: Bool = returned.withLock {
                if case .returned = $0 { return true }
                $0 = .holderWaiting(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
