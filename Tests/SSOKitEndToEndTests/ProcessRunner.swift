import Foundation
import Synchronization

/// Runs child processes for end-to-end tests, each with a deadline after which it is killed.
struct ProcessResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// stdout parsed as one JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }
}

enum ProcessRunner {
    /// Runs `executable` with `arguments` and waits at most `timeout` seconds; `input` is written to its standard
    /// input (else it reads from /dev/null).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 120,
        input: Data? = nil
    ) async throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        let collected = Mutex<(Data, Data)>((Data(), Data()))
        out.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            collected.withLock { $0.0.append(chunk) }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            collected.withLock { $0.1.append(chunk) }
        }
        // Waiting happens in Foundation's termination handler, never on a cooperative thread: end-to-end tests run
        // beside every other suite, and a blocked pool (two threads on a two-core machine) stalls them all.
        try await ChildProcess.run(process, timeout: timeout) {
            if let input {
                try stdin.fileHandleForWriting.write(contentsOf: input)
                try stdin.fileHandleForWriting.close()
            }
        }
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        let restOut = out.fileHandleForReading.readDataToEndOfFile()
        let restErr = err.fileHandleForReading.readDataToEndOfFile()
        let (stdout, stderr) = collected.withLock { ($0.0 + restOut, $0.1 + restErr) }
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
