import Foundation

/// The OpenID Provider we did not write (oidc-provider-mock, on 127.0.0.1), started for one test.
final class MockProvider {
    let issuer: String
    private let peer: PeerProcess

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

    init(extraArguments: [String] = []) async throws {
        // Waits at most 30 s for the READY line.
        let peer = try await PeerProcess(
            script: "op.py", arguments: ["--port", "0", "--max-seconds", "300"] + extraArguments)
        guard peer.firstLine.hasPrefix("READY ") else {
            peer.stop()
            throw ProviderError(message: "the mock provider did not start (got: \(peer.firstLine.prefix(200)))")
        }
        self.peer = peer
        issuer = String(peer.firstLine.dropFirst("READY ".count))
    }

    /// Stops the provider: SIGTERM, then SIGKILL if it is still running after 5 s.
    func stop() { peer.stop() }

    deinit { stop() }

    struct ProviderError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
