import Foundation
import SSOKitExtension

/// How `ssokit authorize` answers an interaction: credentials from `--username`/`--password-stdin` or asked on the
/// terminal (secrets without echo); a browser opened on the URL, its callback taken by a loopback listener when the
/// redirect URI is `http://127.0.0.1:PORT/callback`, else pasted by the user.
struct AuthorizeInteraction {
    let adapter: RedirectExtension
    let username: String?
    let password: String?
    let browserCommand: String?
    let timeout: Duration
    /// Whether `--username`/`--password-stdin` were used up (a second form means they were refused).
    private var answeredFromOptions = false

    init(adapter: RedirectExtension, username: String?, password: String?, browserCommand: String?, timeout: Duration) {
        self.adapter = adapter
        self.username = username
        self.password = password
        self.browserCommand = browserCommand
        self.timeout = timeout
    }

    /// Resumes `id` with `--callback-url`, or with the credentials options.
    mutating func resume(_ id: String, callbackURL: String?) async -> AuthorizationResult {
        if let callbackURL, let url = URL(string: callbackURL) {
            return await adapter.resume(interaction: id, with: .callbackURL(url))
        }
        guard let username else {
            return await adapter.resume(interaction: id, with: .cancel)
        }
        answeredFromOptions = true
        return await adapter.resume(
            interaction: id, with: .credentials(["username": username, "password": password ?? ""]))
    }

    /// Shows `interaction` and resumes it with the answer.
    mutating func answer(_ interaction: Interaction) async -> AuthorizationResult {
        switch interaction.kind {
        case .credentials(let fields):
            guard let credentials = credentials(for: fields) else {
                return await adapter.resume(interaction: interaction.id, with: .cancel)
            }
            return await adapter.resume(interaction: interaction.id, with: .credentials(credentials))
        case .browser(let url):
            guard let callback = await browserCallback(url) else {
                return await adapter.resume(interaction: interaction.id, with: .cancel)
            }
            return await adapter.resume(interaction: interaction.id, with: .callbackURL(callback))
        }
    }

    /// The options' credentials once, else each field asked on the terminal; nil when nothing can be asked.
    private mutating func credentials(for fields: [CredentialField]) -> [String: String]? {
        if let username, !answeredFromOptions {
            answeredFromOptions = true
            return ["username": username, "password": password ?? ""]
        }
        guard username == nil else { return nil }
        var values: [String: String] = [:]
        for field in fields {
            guard let value = TerminalAuthenticator.prompt("\(field.name): ", echo: !field.isSecret) else { return nil }
            values[field.name] = value
        }
        return values
    }

    /// Opens `url` and waits for the redirect back: on a loopback listener, or pasted on the terminal.
    private func browserCallback(_ url: URL) async -> URL? {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let redirect = query.first { $0.name == "redirect_uri" }?.value.flatMap { URL(string: $0) }
        let state = query.first { $0.name == "state" }?.value
        if let redirect, redirect.scheme == "http", redirect.host == "127.0.0.1", redirect.path == "/callback",
            let port = redirect.port, let state
        {
            do {
                let listener = try await LoopbackRedirectListener(port: port)
                listener.expect(state: state)
                do {
                    try BrowserLauncher.open(url, command: browserCommand)
                    let callback = try await listener.waitForCallback(timeout: timeout)
                    await listener.close()
                    return URL(string: listener.redirectURI + "?" + callback)
                } catch {
                    await listener.close()
                    return nil
                }
            } catch {
                return nil
            }
        }
        guard (try? BrowserLauncher.open(url, command: browserCommand)) != nil,
            let pasted = TerminalAuthenticator.prompt("Paste the URL the browser was sent to: ", echo: true)
        else { return nil }
        return URL(string: pasted.trimmingCharacters(in: .whitespaces))
    }
}
