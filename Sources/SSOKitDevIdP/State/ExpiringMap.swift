import Foundation

/// A bounded map whose entries expire, owned by one actor. When full, expired entries are swept; if it is still
/// full, new entries are refused rather than live ones evicted, so that a flood cannot log everybody out.
struct ExpiringMap<Value: Sendable>: Sendable {
    private var entries: [String: (value: Value, expiry: Date)] = [:]
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The live value under `key`.
    func value(_ key: String, now: Date) -> Value? {
        guard let entry = entries[key], entry.expiry > now else { return nil }
        return entry.value
    }

    /// Stores `value` until `expiry`, replacing what was there; false when the map is full of live entries.
    mutating func set(_ value: Value, key: String, expiry: Date, now: Date) -> Bool {
        if entries[key] == nil, entries.count >= capacity {
            entries = entries.filter { $0.value.expiry > now }
            guard entries.count < capacity else { return false }
        }
        entries[key] = (value, expiry)
        return true
    }

    /// Replaces the value of a live entry, keeping its expiry.
    mutating func update(_ key: String, now: Date, _ change: (inout Value) -> Void) {
        guard var entry = entries[key], entry.expiry > now else { return }
        change(&entry.value)
        entries[key] = entry
    }

    /// Removes and returns the live value under `key`.
    @discardableResult
    mutating func remove(_ key: String, now: Date) -> Value? {
        guard let entry = entries.removeValue(forKey: key), entry.expiry > now else { return nil }
        return entry.value
    }

    /// Removes every entry whose value satisfies `predicate` and returns those values.
    mutating func removeAll(where predicate: (Value) -> Bool) -> [Value] {
        let matching = entries.filter { predicate($0.value.value) }
        for key in matching.keys { entries.removeValue(forKey: key) }
        return matching.values.map(\.value)
    }
}
