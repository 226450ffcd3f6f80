import Foundation

/// `ProtectedWebAppExample` started as its own process on a free loopback port; stdout and stderr go to files.
final class ProtectedWebAppProcess {
    let baseURL: String
    private let process: Process
    private let folder: URL

    var stderr: String {
        (try? String(contentsOf: folder.appendingPathComponent("app-stderr.txt"), encoding: .utf8)) ?? ""
    }

    /// The example next to the test bundle in the build folder.
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("ProtectedWebAppExample").path
    }

    /// Starts the example with `arguments` (plus `--port`); waits at most 30 s for its READY line.
    init(_ arguments: [String], folder: URL) async throws {
        self.folder = folder
        let port = try LoopbackPort.free()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--port", String(port)] + arguments
        self.process = process
        baseURL = try await ReadyLine.launch(
            process, name: "ProtectedWebAppExample", stdout: folder.appendingPathComponent("app-stdout.txt"),
            stderr: folder.appendingPathComponent("app-stderr.txt"), timeout: 30)
    }

    /// SIGTERM, then SIGKILL after 5 s.
    func stop() { ReadyLine.stop(process, signal: SIGTERM) }

    deinit { stop() }
}
