import ArgumentParser
import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC

/// `ssokit authorize`: one request through the redirect-extension adapter (CLI-CONTRACT.md). Prints the result as
/// one JSON object; exit 0 for every result but `failure` (1).
struct AuthorizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "authorize",
        abstract: "Run one request through the redirect-extension adapter and print the result as JSON.")

    @Option(help: "The profile: a .mobileconfig (XML plist, signed or not) or JSON {\"PayloadContent\": [...]}.")
    var profile: String
    @Option(help: "A PEM file of trust anchors for a signed profile.")
    var trust: String?
    @Option(help: "The calling app's bundle identifier.")
    var app: String
    @Option(help: "login, refresh, logout, implicit, configurationRemoved, a custom name, or none (default).")
    var operation: String?
    @Argument(help: "The request URL (a managed URL, a challenged host's URL, or the IdP's URL for an operation).")
    var url: String?
    @Option(help: "The request's HTTP method.")
    var method: String = "GET"
    @Option(name: .customLong("header"), help: "A request header \"Name: value\" (repeatable).")
    var headers: [String] = []
    @Option(name: .customLong("body-file"), help: "A file holding the request body (at most 64 KiB).")
    var bodyFile: String?
    @Option(help: "The realm of a credential challenge.")
    var realm: String?
    @Option(name: .customLong("option"), help: "An authorization option key=value, e.g. end_session=true (repeatable).")
    var options: [String] = []
    @OptionGroup var storeOptions: StoreOptions
    @Flag(name: .customLong("no-ui"), help: "Ask nothing: print a needs_interaction result instead.")
    var noUI = false
    @Flag(help: "Send the request with UI not allowed (needs the user: failure not_interactive).")
    var silent = false
    @Flag(name: .customLong("screen-locked"), help: "Send the request as if the screen were locked.")
    var screenLocked = false
    @Option(help: "Answer a credentials interaction with this user name (with --password-stdin).")
    var username: String?
    @Flag(name: .customLong("password-stdin"), help: "Read the password for --username from standard input.")
    var passwordStdin = false
    @Option(help: "Resume this pending interaction (from a needs_interaction result) instead of sending a request.")
    var resume: String?
    @Option(name: .customLong("callback-url"), help: "With --resume: the URL the browser was redirected to.")
    var callbackURL: String?
    @Option(name: .customLong("browser-command"), help: "Command run with a browser interaction's URL appended.")
    var browserCommand: String?
    @Option(help: "Seconds to wait for a browser interaction's callback.")
    var timeout: Int = 300
    @Option(help: "Fix the clock (ISO 8601 or Unix seconds).")
    var now: TimeArgument?

    func validate() throws {
        if passwordStdin && username == nil { throw ValidationError("--password-stdin needs --username") }
        if callbackURL != nil && resume == nil { throw ValidationError("--callback-url needs --resume") }
        if resume != nil && username == nil && callbackURL == nil {
            throw ValidationError("--resume needs --username with --password-stdin, or --callback-url")
        }
        if let url, URL(string: url)?.scheme == nil { throw ValidationError("\(url) is not an absolute URL") }
        guard HTTPRequest.Method(method) != nil else { throw ValidationError("--method \(method) is not a method") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        _ = try requestHeaders()
        _ = try authorizationOptions()
    }

    func run() async throws {
        try await CLIOutput.run {
            let clock = TimeArgument.clock(now)
            let catalog = try ProfileFile.catalog(profile, trust: trust, clock: clock)
            let body = try bodyFile.map {
                try SAMLFileInput.bytes($0, limit: SSOKitExtension.AuthorizationRequest.maximumJSONBytes)
            }
            let password = passwordStdin ? try Self.readPassword() : nil
            let result = try await CacheContext.with(storeOptions, clock: clock) { context in
                try await HTTPSession.with { transport in
                    let adapter = RedirectExtension(
                        catalog: catalog,
                        environment: ExtensionEnvironment(
                            tokenCache: context.cache, transport: transport, clock: clock, rightStore: context.rights,
                            rightAuthenticator: TerminalAuthenticator()))
                    var interaction = AuthorizeInteraction(
                        adapter: adapter, username: username, password: password, browserCommand: browserCommand,
                        timeout: .seconds(timeout))
                    var result: AuthorizationResult
                    if let resume {
                        result = await interaction.resume(resume, callbackURL: callbackURL)
                    } else {
                        result = await adapter.authorize(try request(body: body ?? []))
                    }
                    // A login form that rejects the credentials ends the run; each round asks once.
                    for _ in 0..<3 where !noUI {
                        guard case .needsInteraction(let pending) = result else { break }
                        result = await interaction.answer(pending)
                    }
                    return result
                }
            }
            print(result.jsonText)
            if case .failure = result { throw ExitCode(1) }
        }
    }

    private func request(body: [UInt8]) throws -> SSOKitExtension.AuthorizationRequest {
        SSOKitExtension.AuthorizationRequest(
            url: url.flatMap { URL(string: $0) }, httpMethod: method.uppercased(), httpHeaders: try requestHeaders(),
            httpBody: body, realm: realm, callerBundleIdentifier: app, isUserInterfaceEnabled: !silent,
            operation: AuthorizationOperation(parsing: operation ?? ""),
            authorizationOptions: try authorizationOptions(),
            isScreenLocked: screenLocked)
    }

    private func requestHeaders() throws -> HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            guard let colon = header.firstIndex(of: ":"),
                let name = HTTPField.Name(String(header[..<colon]).trimmingCharacters(in: .whitespaces))
            else { throw ValidationError("--header \"\(header)\" is not \"Name: value\"") }
            fields.append(
                HTTPField(
                    name: name,
                    value: String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        return fields
    }

    private func authorizationOptions() throws -> [String: String] {
        var result: [String: String] = [:]
        for option in options {
            let parts = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--option \(option) is not key=value")
            }
            result[String(parts[0])] = String(parts[1])
        }
        return result
    }

    /// The password on standard input, without its final line break.
    private static func readPassword() throws -> String {
        var text = String(decoding: try BoundedRead.all(0, limit: 4096, name: "standard input"), as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        guard !text.isEmpty else { throw ValidationError("--password-stdin read an empty password") }
        return text
    }
}
