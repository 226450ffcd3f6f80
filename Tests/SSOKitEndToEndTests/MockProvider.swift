import Foundation

/// The OpenID Provider we did not write (oidc-provider-mock, on 127.0.0.1), started for one test.
final class MockProvider {
    let issuer: String
    private let process: Process

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static var peerDirectory: URL { packageRoot.appendingPathComponent("Tests/SSOKitEndToEndTests/peer") }

    /// The Python with the peer's requirements: `$SSOKIT_E2E_PYTHON`, else the `.venv` that `.ci/run` makes.
    static var python: String {
        if let override = ProcessInfo.processInfo.environment["SSOKIT_E2E_PYTHON"] { return override }
        return packageRoot.appendingPathComponent(".venv/bin/python3").path
    }

    /// The `ssokit` binary built beside the test bundle.
    static var ssokit: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ssokit")
            .path
    }

    init(extraArguments: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments =
            [Self.peerDirectory.appendingPathComponent("op.py").path, "--port", "0", "--max-seconds", "300"]
            + extraArguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Read the READY line, bounded: 30 s.
        var buffer = Data()
        let deadline = Date().addingTimeInterval(30)
        let handle = out.fileHandleForReading
        while Date() < deadline, !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("READY ") else {
            process.terminate()
            throw ProviderError(message: "the mock provider did not start (got: \(line.prefix(200)))")
        }
        issuer = String(line.dropFirst("READY ".count))
    }

    /// Stops the provider: SIGTERM, then SIGKILL if it is still running after 5 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }

    struct ProviderError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
