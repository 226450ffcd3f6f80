import Foundation

/// Opens a URL for the user (the authorization URL, a device verification URI, an end-session URL): a
/// `--browser-command` run without a shell, the URL as its last argument, or else the URL printed for the user and
/// `xdg-open` tried.
///
/// The browser runs with this process's environment minus SSOKit's secrets (`SSOKIT_*`, such as
/// `SSOKIT_PASSPHRASE` and `SSOKIT_CLIENT_SECRET`, and `PGPASSWORD`), and a URL that starts with `-` is never
/// passed: it could be read as an option.
enum BrowserLauncher {
    static func open(_ url: URL, command: String?) throws {
        let text = url.absoluteString
        guard !text.hasPrefix("-") else {
            throw CLIFailure(code: "browser_failed", message: "refusing to open a URL that starts with '-'")
        }
        guard let command else {
            CLIOutput.note("Open this URL to log in:\n\(text)")
            _ = try? launch(["xdg-open", text], quiet: true)
            return
        }
        let words = command.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { throw CLIFailure(code: "browser_failed", message: "--browser-command is empty") }
        try launch(words + [text], quiet: false)
    }

    /// This process's environment without the variables that hold SSOKit's secrets.
    static var browserEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { name, _ in !name.hasPrefix("SSOKIT_") && name != "PGPASSWORD" }
    }

    @discardableResult
    private static func launch(_ arguments: [String], quiet: Bool) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = browserEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError
        if quiet { process.standardError = FileHandle.nullDevice }
        do {
            try process.run()
        } catch {
            throw CLIFailure(code: "browser_failed", message: "could not start \(arguments[0])")
        }
        return process
    }
}
