import Foundation
import Synchronization

/// A Python peer from `peer/` (run with ``MockProvider/python``) started for one test. Its first stdout line, which
/// the peer prints once it listens, is read with a deadline; ``stop()`` ends the process.
final class PeerProcess {
    /// The peer's first stdout line, without the line break.
    let firstLine: String
    private let process: Process

    /// Starts `peer/<script>` with `arguments` and waits at most `startupTimeout` seconds for its first line.
    ///
    /// The peer must unblock SIGTERM/SIGINT itself: Foundation's `Process` children inherit a blocked signal mask.
    init(script: String, arguments: [String], startupTimeout: TimeInterval = 30) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MockProvider.python)
        process.arguments = [MockProvider.peerDirectory.appendingPathComponent(script).path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let received = Mutex(Data())
        out.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            received.withLock { $0.append(chunk) }
        }
        try process.run()
        self.process = process

        _ = await ChildProcess.wait(for: process, timeout: startupTimeout) {
            received.withLock { $0.contains(UInt8(ascii: "\n")) }
        }
        out.fileHandleForReading.readabilityHandler = nil
        let data = received.withLock { $0 }
        let line = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first
        firstLine = String(decoding: line ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard data.contains(UInt8(ascii: "\n")) else {
            let why = process.isRunning ? "printed nothing within \(Int(startupTimeout)) s" : "exited early"
            stop()
            throw PeerError(message: "the peer \(script) \(why) (got: \(firstLine.prefix(200)))")
        }
    }

    /// Stops the peer: SIGTERM, then SIGKILL if it is still running after 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }

    struct PeerError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
