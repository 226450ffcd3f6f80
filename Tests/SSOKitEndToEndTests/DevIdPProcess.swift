import Foundation

/// `ssokit dev-idp` started as its own process for one test, with a fresh data folder. Its stdout and stderr go to
/// files, so that a test can check that stdout holds exactly the READY line and what the log says.
final class DevIdPProcess {
    let baseURL: String
    let folder: URL
    private let process: Process

    var dataFolder: URL { folder.appendingPathComponent("data") }
    var stdoutFile: URL { folder.appendingPathComponent("stdout.txt") }
    var stderrFile: URL { folder.appendingPathComponent("stderr.txt") }

    /// Everything the IdP wrote on stdout and stderr so far.
    var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// Starts the IdP with `registrations` as its data folder's clients.json (none: the demo defaults) and the
    /// extra arguments; waits at most 30 s for READY.
    init(registrations: String? = nil, arguments: [String] = []) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("devidp-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        if let registrations {
            try registrations.write(
                to: folder.appendingPathComponent("data/clients.json"), atomically: true, encoding: .utf8)
        }
        for file in ["stdout.txt", "stderr.txt"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(file).path, contents: nil)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MockProvider.ssokit)
        process.arguments = ["dev-idp", "--data", folder.appendingPathComponent("data").path] + arguments
        process.standardOutput = try FileHandle(forWritingTo: folder.appendingPathComponent("stdout.txt"))
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("stderr.txt"))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        let stdoutFile = folder.appendingPathComponent("stdout.txt")
        func readyLine() -> Substring? {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").first { $0.hasPrefix("READY ") }
        }
        _ = await ChildProcess.wait(for: process, timeout: 30) { readyLine() != nil }
        let line = readyLine()
        guard let line else {
            let why = process.isRunning ? "printed no READY line within 30 s" : "exited early"
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let errors = (try? String(contentsOf: folder.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
            throw ProcessError(message: "ssokit dev-idp \(why): \(errors.prefix(500))")
        }
        baseURL = String(line.dropFirst("READY ".count))
    }

    /// `signal` (SIGTERM by default), then SIGKILL after 5 s; returns the exit status (nil when it had to be
    /// killed).
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    /// Stops the IdP and removes its folder.
    func remove() {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { remove() }

    struct ProcessError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
