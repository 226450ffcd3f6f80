import Foundation

/// Opens the authorization URL: a `--browser-command` run without a shell, the URL as its last argument, or else
/// the URL printed for the user and `xdg-open` tried.
enum BrowserLauncher {
    static func open(_ url: URL, command: String?) throws {
        guard let command else {
            CLIOutput.note("Open this URL to log in:\n\(url.absoluteString)")
            _ = try? launch(["xdg-open", url.absoluteString], quiet: true)
            return
        }
        let words = command.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { throw CLIFailure(code: "browser_failed", message: "--browser-command is empty") }
        try launch(words + [url.absoluteString], quiet: false)
    }

    @discardableResult
    private static func launch(_ arguments: [String], quiet: Bool) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
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
