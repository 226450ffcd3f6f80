import Foundation

/// A throwaway home for `ssokit` runs: a cache folder and `$XDG_CONFIG_HOME` (where the keys live) under one
/// temporary folder, and files the tests hand to the CLI. ``cleanUp()`` removes it all.
struct CLIWorkspace {
    let base: URL
    let cache: URL
    let config: URL
    static let client = "ssokit-e2e"
    static let secret = "e2e-secret"
    static let app = "com.example.mail"

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-cli-\(UUID().uuidString)")
        cache = base.appendingPathComponent("cache")
        config = base.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    }

    /// Runs the CLI with this workspace's `$XDG_CONFIG_HOME`.
    func ssokit(
        _ arguments: [String], environment: [String: String] = [:], input: Data? = nil, timeout: TimeInterval = 120
    ) async throws -> ProcessResult {
        var merged = ["XDG_CONFIG_HOME": config.path]
        for (name, value) in environment { merged[name] = value }
        return try await ProcessRunner.run(
            MockProvider.ssokit, arguments, environment: merged, timeout: timeout, input: input)
    }

    /// The session options without any client secret: the contract's form of `logout`.
    func session(_ issuer: String) -> [String] {
        ["--issuer", issuer, "--client-id", Self.client, "--cache", cache.path, "--app", Self.app]
    }

    /// `oidc login` through the scripted browser, with `extra` options (the secret unless `extra` names another).
    func login(_ issuer: String, extra: [String] = ["--client-secret", secret], environment: [String: String] = [:])
        async throws -> ProcessResult
    {
        let browser = MockProvider.python + " " + MockProvider.peerDirectory.appendingPathComponent("browser.py").path
        return try await ssokit(
            ["oidc", "login"] + session(issuer) + extra + ["--browser-command", browser, "--json"],
            environment: environment)
    }

    var secret: String { Self.secret }

    /// The cached session's tokens (`cache show --reveal`).
    func revealed(_ issuer: String) async throws -> [String: Any] {
        let shown = try await ssokit(
            [
                "cache", "show", "--issuer", issuer, "--client-id", Self.client, "--cache", cache.path, "--app",
                Self.app,
                "--reveal",
            ])
        return shown.json ?? [:]
    }

    /// Writes `text` to a file in the workspace with `mode`, and returns its path.
    func file(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let url = base.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: base)
    }
}

/// Plain HTTP to a peer, through `peer/http_probe.py`, for what the CLI does not show (the provider's revocation
/// log, a revoked refresh token).
enum HTTPProbe {
    /// The status and the JSON body of one request; `form` makes it a form POST, `basic` adds client_secret_basic.
    static func send(_ url: String, form: [String: String]? = nil, basic: (String, String)? = nil) async throws
        -> (status: Int, body: Any?)
    {
        var arguments = [MockProvider.peerDirectory.appendingPathComponent("http_probe.py").path, url]
        if let form {
            arguments += ["--form", String(decoding: try JSONSerialization.data(withJSONObject: form), as: UTF8.self)]
        }
        if let basic { arguments += ["--basic", "\(basic.0):\(basic.1)"] }
        let result = try await ProcessRunner.run(MockProvider.python, arguments, timeout: 30)
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        return (object?["status"] as? Int ?? -1, object?["body"])
    }
}
