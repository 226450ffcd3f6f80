import Foundation
import SSOKitStore

/// Keeps the failed-attempt counters of one right: in memory for a plain right, in the store for a persisted one
/// (so that restarting the process does not reset them).
///
/// An attempt is counted as failed before anything is asked or evaluated, in one atomic step with the check that
/// it may be made; only a success resets the count. Two processes (or two instances of one right) trying at once
/// are therefore both counted, and neither gets an uncounted try; an attempt cut short (cancelled, crashed) counts.
protocol RightAttemptGate: Sendable {
    /// Counts one attempt at `now`. Throws `locked_out`, counting nothing, when no attempt may be made.
    func begin(now: Date) async throws(RightError)
    /// Resets the counters after a success.
    func recordSuccess() async throws(RightError)
}

/// Counters in memory.
actor InMemoryAttemptGate: RightAttemptGate {
    private let policy: RightAttemptPolicy
    private var counters = RightAttemptCounters.none

    init(policy: RightAttemptPolicy) { self.policy = policy }

    func begin(now: Date) throws(RightError) {
        try policy.check(counters, now: now)
        counters = policy.afterFailure(counters, now: now)
    }

    func recordSuccess() { counters = .none }
}

/// Counters in a ``RightRecordStore`` row, authenticated with an ``AttemptCounterSeal`` and updated atomically.
struct StoredAttemptGate: RightAttemptGate {
    let store: any RightRecordStore
    let identifier: String
    let policy: RightAttemptPolicy
    let seal: AttemptCounterSeal

    func begin(now: Date) async throws(RightError) {
        let (policy, seal) = (policy, seal)
        // The store applies `admit` to the counters it holds under its lock and keeps them as they are when it
        // refuses; the same decision is then taken again here on the counters it found, to report the refusal.
        let found = try await RightStoreError.wrap { () throws(TokenCacheError) in
            try await store.updateAttempts(identifier: identifier) { current in
                (try? Self.admit(current, policy: policy, seal: seal, now: now)) ?? current
            }
        }
        guard let found else { throw RightError(.notFound, "the right was deleted") }
        _ = try Self.admit(found, policy: policy, seal: seal, now: now)
    }

    /// The counters after one more attempt at `now`; throws when `current` do not verify or forbid trying.
    private static func admit(
        _ current: RightAttempts, policy: RightAttemptPolicy, seal: AttemptCounterSeal, now: Date
    ) throws(RightError) -> RightAttempts {
        guard let counters = seal.open(current) else {
            throw RightError(
                .recordUnreadable,
                "the right's attempt counters do not verify (edited outside SSOKit, or another device key): "
                    + "no attempt is allowed")
        }
        try policy.check(counters, now: now)
        return seal.seal(policy.afterFailure(counters, now: now))
    }

    func recordSuccess() async throws(RightError) {
        let reset = seal.seal(.none)
        _ = try await RightStoreError.wrap { () throws(TokenCacheError) in
            try await store.updateAttempts(identifier: identifier) { _ in reset }
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
