import Foundation

/// Programs that print `READY <address>` on stdout once they listen (`ssokit dev-idp`, `ssokit serve`, the
/// examples): started with stdout and stderr in files, waited for without blocking a thread.
enum ReadyLine {
    /// Creates `stdout` and `stderr` empty, points `process` at them (stdin at /dev/null), runs it and waits at most
    /// `timeout` seconds for the READY line; returns what follows `READY `. Otherwise kills the process and throws
    /// with the start of its stderr, `name` saying who failed.
    static func launch(_ process: Process, name: String, stdout: URL, stderr: URL, timeout: TimeInterval)
        async throws -> String
    {
        for file in [stdout, stderr] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        func readyLine() -> Substring? {
            let text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").first { $0.hasPrefix("READY ") }
        }
        _ = await ChildProcess.wait(for: process, timeout: timeout) { readyLine() != nil }
        guard let line = readyLine() else {
            let why = process.isRunning ? "printed no READY line within \(Int(timeout)) s" : "exited early"
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            throw DevIdPProcess.ProcessError(message: "\(name) \(why): \(errors.prefix(800))")
        }
        return String(line.dropFirst("READY ".count))
    }

    /// `signal`, then SIGKILL after 5 s; returns the exit status (nil when it had to be killed).
    @discardableResult
    static func stop(_ process: Process, signal: Int32) -> Int32? {
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
}
