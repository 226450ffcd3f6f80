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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MockProvider.ssokit)
        process.arguments = ["dev-idp", "--data", folder.appendingPathComponent("data").path] + arguments
        self.process = process
        baseURL = try await ReadyLine.launch(
            process, name: "ssokit dev-idp", stdout: folder.appendingPathComponent("stdout.txt"),
            stderr: folder.appendingPathComponent("stderr.txt"), timeout: 30)
    }

    /// `signal` (SIGTERM by default), then SIGKILL after 5 s; returns the exit status (nil when it had to be
    /// killed).
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32? {
        ReadyLine.stop(process, signal: signal)
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
