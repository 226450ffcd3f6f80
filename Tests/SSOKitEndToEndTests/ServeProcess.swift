import Foundation

/// `ssokit serve` started as its own process for one test: stdout and stderr go to files in `folder`, so that a
/// test can check that stdout holds exactly the READY line and read the JSON-line log.
final class ServeProcess {
    /// What followed `READY ` (`unix:PATH` or `http://HOST:PORT`).
    let address: String
    let folder: URL
    /// The prefix of its output files (`NAME-stdout.txt`, `NAME-stderr.txt`): instances sharing a folder differ.
    let name: String
    private let process: Process

    var stdout: String {
        (try? String(contentsOf: folder.appendingPathComponent("\(name)-stdout.txt"), encoding: .utf8)) ?? ""
    }
    var stderr: String {
        (try? String(contentsOf: folder.appendingPathComponent("\(name)-stderr.txt"), encoding: .utf8)) ?? ""
    }

    /// The log's lines, parsed.
    var logLines: [[String: Any]] {
        stderr.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Starts `ssokit serve ARGUMENTS` with `$XDG_CONFIG_HOME` in `folder` (instances sharing a folder share the
    /// cache key) and its output in files named after `name`; waits at most 60 s for READY.
    init(_ arguments: [String], folder: URL, name: String = "serve") async throws {
        self.folder = folder
        self.name = name
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MockProvider.ssokit)
        process.arguments = ["serve"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        process.environment = environment
        self.process = process
        address = try await ReadyLine.launch(
            process, name: "ssokit serve", stdout: folder.appendingPathComponent("\(name)-stdout.txt"),
            stderr: folder.appendingPathComponent("\(name)-stderr.txt"), timeout: 60)
    }

    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the server.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits at most `timeout` seconds for a log line whose `message` is `message`; returns it.
    func waitForLog(_ message: String, timeout: TimeInterval = 20) async -> [String: Any]? {
        func line() -> [String: Any]? { logLines.first { $0["message"] as? String == message } }
        _ = await ChildProcess.wait(for: process, timeout: timeout) { line() != nil }
        return line()
    }

    /// `signal` (SIGTERM by default), then SIGKILL after 10 s; returns the exit status (nil when it had to be
    /// killed).
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
