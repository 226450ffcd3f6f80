import Foundation

/// A bounded map whose entries expire: when full, expired entries are swept and, if it is still full, new entries
/// are refused rather than live ones evicted, so that a flood cannot flush it. Owned by an actor.
struct ExpiringEntries<Value> {
    private var entries: [String: (value: Value, expiry: Date)] = [:]
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Stores `value` under `key` until `expiry` unless a live entry is there. Returns false when one is, or when
    /// the map is full of live entries.
    mutating func insertIfAbsent(_ value: Value, key: String, expiry: Date, now: Date) -> Bool {
        if let existing = entries[key], existing.expiry > now { return false }
        if entries.count >= capacity {
            entries = entries.filter { $0.value.expiry > now }
            guard entries.count < capacity else { return false }
        }
        entries[key] = (value, expiry)
        return true
    }

    /// Removes and returns the live value under `key`.
    mutating func take(_ key: String, now: Date) -> Value? {
        guard let entry = entries.removeValue(forKey: key), entry.expiry > now else { return nil }
        return entry.value
    }

    /// How many entries are stored, expired ones included until swept or taken.
    var count: Int { entries.count }
}
