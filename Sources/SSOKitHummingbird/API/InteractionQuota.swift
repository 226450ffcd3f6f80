import Foundation

/// The live interactions of each caller in this process, so that no caller can pile up pending interactions (each
/// one a row in the store and a call to the IdP): at most `limit` each, forgotten when resumed or expired.
actor InteractionQuota {
    nonisolated let limit: Int
    private var live: [String: [String: Date]] = [:]

    init(limit: Int) { self.limit = max(1, limit) }

    /// Whether `caller` has fewer than `limit` live interactions at `now`.
    func hasRoom(for caller: String, now: Date) -> Bool {
        prune(caller, now: now) < limit
    }

    /// Counts interaction `id` for `caller` until `expiry`; false when `caller` has no room.
    func reserve(_ id: String, for caller: String, until expiry: Date, now: Date) -> Bool {
        guard prune(caller, now: now) < limit else { return false }
        live[caller, default: [:]][id] = expiry
        return true
    }

    /// Stops counting interaction `id`.
    func release(_ id: String, for caller: String) {
        live[caller]?[id] = nil
        if live[caller]?.isEmpty == true { live[caller] = nil }
    }

    /// Forgets `caller`'s expired interactions; returns how many are live.
    private func prune(_ caller: String, now: Date) -> Int {
        guard let entries = live[caller] else { return 0 }
        let kept = entries.filter { $0.value > now }
        live[caller] = kept.isEmpty ? nil : kept
        return kept.count
    }
}
