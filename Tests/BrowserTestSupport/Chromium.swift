import Foundation

/// Debian's headless Chromium, run by a test with a throwaway profile and HOME, its proxy set by a PAC URL, and
/// the local authority trusted through the NSS database in that HOME (the real trust store, not a bypass flag).
public struct Chromium: Sendable {
    public let executable: String
    public let home: URL

    static let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
    static let certutilCandidates = ["/usr/bin/certutil"]

    /// A Chromium with an empty HOME whose NSS database trusts `authorityPEM` as a root for TLS servers.
    public static func prepare(trusting authorityPEM: String) throws -> Chromium {
        let executable = try executableOrThrow(
            candidates, "Chromium is not installed: .ci/install-deps installs Debian's chromium")
        let certutil = try executableOrThrow(
            certutilCandidates, "certutil is not installed: .ci/install-deps installs libnss3-tools")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-chromium-\(UUID().uuidString)")
        let database = home.appendingPathComponent(".pki/nssdb")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        let pem = home.appendingPathComponent("authority.pem")
        try authorityPEM.write(to: pem, atomically: true, encoding: .utf8)
        try run(certutil, ["-N", "-d", "sql:\(database.path)", "--empty-password"], home: home)
        try run(
            certutil, ["-A", "-d", "sql:\(database.path)", "-n", "SSOKit test authority", "-t", "C,,", "-i", pem.path],
            home: home)
        return Chromium(executable: executable, home: home)
    }

    /// A Chromium with an empty HOME and no extra trust, for plain-http pages.
    public static func prepare() throws -> Chromium {
        let executable = try executableOrThrow(
            candidates, "Chromium is not installed: .ci/install-deps installs Debian's chromium")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return Chromium(executable: executable, home: home)
    }

    /// How Chromium finds the proxy.
    public enum ProxySetting: Sendable {
        /// A PAC file at this URL. Chromium sends loopback URLs `DIRECT` whatever a PAC file says (its implicit
        /// bypass rules apply to PAC results, and `<-loopback>` lifts them only for a fixed proxy).
        case pac(String)
        /// A fixed proxy for every URL, loopback included.
        case server(port: Int)

        var arguments: [String] {
            switch self {
            case .pac(let url): ["--proxy-pac-url=\(url)"]
            case .server(let port): ["--proxy-server=http://127.0.0.1:\(port)", "--proxy-bypass-list=<-loopback>"]
            }
        }
    }

    /// Loads `url` through `proxy` and returns the DOM after redirects.
    /// `virtualTimeMilliseconds` lets the page's own navigations (an auto-post form's script) finish first.
    public func dumpDOM(
        _ url: String, proxy: ProxySetting, timeout: Duration = .seconds(60), virtualTimeMilliseconds: Int? = nil
    ) async throws -> String {
        var arguments =
            [
                "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=\(home.appendingPathComponent("profile").path)",
            ] + proxy.arguments + (virtualTimeMilliseconds.map { ["--virtual-time-budget=\($0)"] } ?? [])
            + ["--dump-dom", url]
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let output = home.appendingPathComponent("dom-\(UUID().uuidString).html")
        let errors = home.appendingPathComponent("stderr-\(UUID().uuidString).txt")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning && clock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw ChromiumError.timedOut(Self.text(of: errors))
        }
        process.waitUntilExit()
        let dom = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard process.terminationStatus == 0, !dom.isEmpty else {
            throw ChromiumError.failed(process.terminationStatus, Self.text(of: errors))
        }
        return dom
    }

    private static func text(of file: URL) -> String {
        String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
    }

    public func removeHome() {
        try? FileManager.default.removeItem(at: home)
    }

    private static func run(_ executable: String, _ arguments: [String], home: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["HOME": home.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ChromiumError.setupFailed("\(executable) \(arguments.first ?? "")")
        }
    }
}

public enum ChromiumError: Error, CustomStringConvertible {
    case notInstalled(String)
    case setupFailed(String)
    case timedOut(String)
    case failed(Int32, String)

    public var description: String {
        switch self {
        case .notInstalled(let message): message
        case .setupFailed(let command): "\(command) failed"
        case .timedOut(let stderr): "Chromium did not finish in time; its stderr ends with: \(stderr.suffix(2000))"
        case .failed(let status, let stderr):
            "Chromium exited with \(status) and no page; its stderr ends with: \(stderr.suffix(2000))"
        }
    }
}

/// The first of `candidates` that is executable, or a failure that says what to install (never a skip).
private func executableOrThrow(_ candidates: [String], _ message: String) throws -> String {
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw ChromiumError.notInstalled(message)
    }
    return found
}
