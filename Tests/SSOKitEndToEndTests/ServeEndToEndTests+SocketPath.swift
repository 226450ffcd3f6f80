import Foundation
import Testing

/// A second `ssokit serve` on the socket path of a running one is refused, and neither removes the other's socket.
extension ServeEndToEndTests {
    @Test func aSecondServerOnALiveSocketPathIsRefusedAndTheFirstKeepsItsSocket() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = try write("profile.json", profile("http://127.0.0.1:9"))
        let cache = folder.appendingPathComponent("cache").path
        let first = try await ServeProcess(
            ["--profile", profile, "--socket", socket, "--cache", cache], folder: folder)

        let second = try await ProcessRunner.run(
            MockProvider.ssokit, ["serve", "--profile", profile, "--socket", socket, "--cache", cache],
            environment: ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path], timeout: 60)
        #expect(second.status != 0)
        #expect(second.json?["error"] as? String == "listen_failed", "\(second.stdout)")
        #expect((second.json?["message"] as? String)?.contains("in use") == true)
        #expect(!second.stdout.contains("READY"))

        // The first server still has its socket and answers on it.
        #expect(UnixSocketProbe.isSocket(socket))
        let health = try await SocketHTTP.get(socket, "/healthz")
        #expect(health.status == 200)
        #expect(first.isRunning)
        #expect(await first.stop() == 0)
        #expect(!UnixSocketProbe.isSocket(socket))

        // A stale socket (no server behind it) is replaced.
        let stale = try await ServeProcess(
            ["--profile", profile, "--socket", socket, "--cache", cache], folder: folder)
        #expect(try await SocketHTTP.get(socket, "/healthz").status == 200)
        stale.send(SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        while stale.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        #expect(UnixSocketProbe.isSocket(socket))
        let next = try await ServeProcess(["--profile", profile, "--socket", socket, "--cache", cache], folder: folder)
        #expect(try await SocketHTTP.get(socket, "/healthz").status == 200)
        #expect(await next.stop() == 0)
    }
}

enum UnixSocketProbe {
    /// Whether a socket file is at `path`.
    static func isSocket(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeSocket
    }
}
