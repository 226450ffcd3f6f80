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
        for file in ["app-stdout.txt", "app-stderr.txt"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(file).path, contents: nil)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--port", String(port)] + arguments
        process.standardOutput = try FileHandle(forWritingTo: folder.appendingPathComponent("app-stdout.txt"))
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("app-stderr.txt"))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        let stdoutFile = folder.appendingPathComponent("app-stdout.txt")
        func readyLine() -> Substring? {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").first { $0.hasPrefix("READY ") }
        }
        _ = await ChildProcess.wait(for: process, timeout: 30) { readyLine() != nil }
        guard let line = readyLine() else {
            let why = process.isRunning ? "printed no READY line within 30 s" : "exited early"
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = (try? String(contentsOf: folder.appendingPathComponent("app-stderr.txt"), encoding: .utf8))
            throw DevIdPProcess.ProcessError(message: "ProtectedWebAppExample \(why): \((errors ?? "").prefix(800))")
        }
        baseURL = String(line.dropFirst("READY ".count))
    }

    /// SIGTERM, then SIGKILL after 5 s.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
