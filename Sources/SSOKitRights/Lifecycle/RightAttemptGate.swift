import Foundation
import SSOKitTokenCache

/// Keeps the failed-attempt counters of one right: in memory for a plain right, in the store for a persisted one
/// (so that restarting the process does not reset them).
protocol RightAttemptGate: Sendable {
    /// Throws `locked_out` when no attempt may be made at `now`.
    func check(now: Date) async throws(RightError)
    /// Records a failure.
    func recordFailure(now: Date) async throws(RightError)
    /// Resets the counters after a success.
    func recordSuccess() async throws(RightError)
}

/// Counters in memory.
actor InMemoryAttemptGate: RightAttemptGate {
    private let policy: RightAttemptPolicy
    private var counters = RightAttemptCounters.none

    init(policy: RightAttemptPolicy) { self.policy = policy }

    func check(now: Date) throws(RightError) { try policy.check(counters, now: now) }
    func recordFailure(now: Date) { counters = policy.afterFailure(counters, now: now) }
    func recordSuccess() { counters = .none }
}

/// Counters in a ``RightRecordStore`` row, updated atomically.
struct StoredAttemptGate: RightAttemptGate {
    let store: any RightRecordStore
    let identifier: String
    let policy: RightAttemptPolicy

    func check(now: Date) async throws(RightError) {
        guard
            let record = try await RightStoreError.wrap({ () throws(TokenCacheError) in
                try await store.right(identifier: identifier)
            })
        else { throw RightError(.notFound, "the right was deleted") }
        try policy.check(
            RightAttemptCounters(failedAttempts: record.failedAttempts, lockedUntil: record.lockedUntil), now: now)
    }

    func recordFailure(now: Date) async throws(RightError) {
        let policy = policy
        _ = try await RightStoreError.wrap { () throws(TokenCacheError) in
            try await store.updateAttempts(identifier: identifier) { current in
                let next = policy.afterFailure(
                    RightAttemptCounters(failedAttempts: current.failedAttempts, lockedUntil: current.lockedUntil),
                    now: now)
                return RightAttempts(failedAttempts: next.failedAttempts, lockedUntil: next.lockedUntil)
            }
        }
    }

    func recordSuccess() async throws(RightError) {
        _ = try await RightStoreError.wrap { () throws(TokenCacheError) in
            try await store.updateAttempts(identifier: identifier) { _ in
                RightAttempts(failedAttempts: 0, lockedUntil: nil)
            }
        }
    }
}

/// Maps store failures to ``RightError``.
enum RightStoreError {
    static func wrap<T>(_ body: () async throws(TokenCacheError) -> T) async throws(RightError) -> T {
        do {
            return try await body()
        } catch {
            throw RightError(.storeUnavailable, error.reason)
        }
    }
}
