import SSOKitStore
import SSOKitTokenCache

/// An update of one entry that a test keeps open, so that the store's exclusive lock (SQLite's write lock, a
/// PostgreSQL row lock) stays taken until ``finish()``. The update writes a one-byte row under its key.
public struct HeldStoreUpdate: Sendable {
    private let release: AsyncLatch
    private let update: Task<StoredRow?, any Error>

    /// Starts updating `key` in `store`; returns once the update's body runs, the lock held.
    public init(store: any TokenCacheStore, key: String) async {
        let locked = AsyncLatch()
        let release = AsyncLatch()
        update = Task {
            try await store.update(key: key) { _ in
                locked.open()
                await release.wait()
                return StoredRow(key: key, application: "held", sealed: [1], expiresAt: nil, version: 0)
            }
        }
        self.release = release
        await locked.wait()
    }

    /// Lets the update finish and returns the row it wrote.
    @discardableResult
    public func finish() async throws -> StoredRow? {
        release.open()
        return try await update.value
    }
}
