import Foundation
import SSOKitStore
import SSOKitTesting
import SSOKitTokenCache

// Test helper for SQLiteThreadingTests, run as a process of its own so that no other test shares its cooperative
// pool: one connection to the database at argv[1] holds SQLite's write lock while argv[2] other connections (more
// than the pool has threads) wait for it, and a task on the pool ticks every 10 ms for 2.5 s. Then the lock is
// released and every waiter must write. Prints `<longest pause between ticks in ms> <waiters that wrote>`.
let arguments = CommandLine.arguments
guard arguments.count == 3, let waiterCount = Int(arguments[2]) else { exit(64) }
let path = arguments[1]
let holder = try SQLiteTokenCacheStore(path: path)
let waiters = try (0..<waiterCount).map { _ in try SQLiteTokenCacheStore(path: path) }

let held = await HeldStoreUpdate(store: holder, key: "held")
let now = Date()
let waiting = (0..<waiterCount).map { index in
    Task {
        try await waiters[index].insertOnce(
            namespace: "probe", id: "w\(index)", value: [UInt8(index)], expiresAt: now + 60, now: now)
    }
}

let clock = ContinuousClock()
let start = clock.now
var last = start
var longestPause = Duration.zero
while clock.now - start < .milliseconds(2500) {
    try await Task.sleep(for: .milliseconds(10))
    let tick = clock.now
    longestPause = max(longestPause, tick - last)
    last = tick
}
try await held.finish()
var wrote = 0
for task in waiting where (try? await task.value) == true { wrote += 1 }
let pause = longestPause.components
print("\(pause.seconds * 1000 + pause.attoseconds / 1_000_000_000_000_000) \(wrote)")
