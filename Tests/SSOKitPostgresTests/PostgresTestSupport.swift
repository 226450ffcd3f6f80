import Foundation
import SSOKitCore
import SSOKitTokenCache
import Synchronization

/// A clock the test moves.
final class TestClock: SSOKitClock, Sendable {
    private let seconds = Mutex<TimeInterval>(1_767_225_600)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(_ delta: TimeInterval) { seconds.withLock { $0 += delta } }
}

/// Counts calls across tasks (uses of a refresh token, creations of an entry).
final class CallCounter: Sendable {
    private let count = Mutex(0)
    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

/// The error a fake token endpoint throws.
struct RefreshDenied: Error, Equatable {
    let serial: Int
}

/// Waits for `process` at most `timeout` seconds, killing it when it runs longer; returns whether it ended in time.
func waitForExit(_ process: Process, timeout: TimeInterval) async throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    guard process.isRunning else { return true }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return false
}
