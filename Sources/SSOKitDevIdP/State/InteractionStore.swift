import Foundation
import SSOKitCore

/// Pages waiting for the browser (login forms, logout confirmations), each under a random handle that the page
/// carries in a hidden field and the browser in a SameSite=Lax cookie: a form posted from another site, or from a
/// browser that did not load the page, matches no interaction.
actor InteractionStore {
    struct Entry: Sendable {
        let interaction: PendingInteraction
        var failures: Int
    }

    private var entries = ExpiringMap<Entry>(capacity: 10_000)

    /// Files `interaction`; returns its handle, or nil when the store is full.
    func begin(_ interaction: PendingInteraction, now: Date, lifetime: TimeInterval) -> String? {
        let handle = SecretKey.make()
        let stored = entries.set(
            Entry(interaction: interaction, failures: 0), key: SecretKey.of(handle),
            expiry: now.addingTimeInterval(lifetime), now: now)
        return stored ? handle : nil
    }

    /// The live interaction whose handle the form carried, provided the browser's cookie carries the same handle.
    func current(handle: String?, cookie: String?, now: Date) -> Entry? {
        guard let handle, let cookie, handle.utf8.count <= 128, ConstantTime.equals(handle, cookie) else { return nil }
        return entries.value(SecretKey.of(handle), now: now)
    }

    /// Counts a wrong password; returns the number so far.
    func recordFailure(handle: String, now: Date) -> Int {
        var count = 0
        entries.update(SecretKey.of(handle), now: now) { entry in
            entry.failures += 1
            count = entry.failures
        }
        return count
    }

    /// Removes the interaction: a handle works for one completion only.
    func finish(handle: String, now: Date) {
        entries.remove(SecretKey.of(handle), now: now)
    }
}
