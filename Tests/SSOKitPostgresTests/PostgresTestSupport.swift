import Foundation
import SSOKitCore
import SSOKitTokenCache
import Synchronization

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
