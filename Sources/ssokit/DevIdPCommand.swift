import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitDevIdP
import SSOKitOIDC

/// `ssokit dev-idp`: the development OpenID Provider and SAML IdP (see CLI-CONTRACT.md). Prints `READY <base URL>`
/// on stdout once it listens, then one line per request on stderr; stops on SIGTERM or SIGINT.
struct DevIdPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-idp",
        abstract: "Run a small OpenID Provider and SAML IdP for development, demos and tests (never for real users).")

    @Option(help: "The address to listen on; anything but loopback also needs --allow-remote.")
    var host: String = "127.0.0.1"
    @Option(help: "The port (0 = any free port).")
    var port: Int = 0
    @Option(help: "The data folder for keys and clients.json (default: $XDG_DATA_HOME/ssokit/dev-idp).")
    var data: String?
    @Option(help: "A JSON file of users (default: the demo user `demo` with a password printed once).")
    var users: String?
    @Flag(name: .customLong("allow-remote"), help: "Allow a --host that is not a loopback address.")
    var allowRemote = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard allowRemote || EndpointSecurity.isLoopback(host: host) else {
            throw ValidationError("--host \(host) is not a loopback address; add --allow-remote to use it")
        }
    }

    func run() async throws {
        try await CLIOutput.run {
            CLIOutput.note("ssokit dev-idp is for development, demos and tests only: plain HTTP, no real accounts.")
            if !EndpointSecurity.isLoopback(host: host) {
                CLIOutput.note("warning: listening on \(host): anyone who reaches it can use this IdP.")
            }
            let folder = data.map { URL(fileURLWithPath: $0) } ?? Self.defaultDataFolder
            let keys = try DevIdPSigningKeys.loadOrCreate(in: folder)
            let registrationsFile = folder.appendingPathComponent(DevIdPRegistrations.fileName)
            let registrations =
                FileManager.default.fileExists(atPath: registrationsFile.path)
                ? try DevIdPRegistrations.load(from: registrationsFile)
                : DevIdPRegistrations.demo
            let people: [DevIdPUser]
            if let users {
                people = try DevIdPUser.load(from: URL(fileURLWithPath: users))
            } else {
                let password = RandomToken.make(byteCount: 12)
                people = [try DevIdPUser.demo(password: password)]
                CLIOutput.note("Demo user: demo, password: \(password) (shown only now; only a salted hash is kept)")
            }
            let provider = try DevIdentityProvider(
                configuration: DevIdPConfiguration(
                    keys: keys, users: people, clients: registrations.clients,
                    serviceProviders: registrations.serviceProviders, host: host, port: port,
                    allowRemote: allowRemote, requestLog: { CLIOutput.note($0) }))
            try await provider.run { url in
                CLIOutput.note("Data folder: \(folder.path)")
                // Unbuffered: whoever started the IdP waits for this line on a pipe.
                FileHandle.standardOutput.write(Data("READY \(url.absoluteString)\n".utf8))
            }
        }
    }

    /// `$XDG_DATA_HOME/ssokit/dev-idp`, else `~/.local/share/ssokit/dev-idp`, else a folder in the temporary
    /// directory.
    static var defaultDataFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_DATA_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("ssokit/dev-idp")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".local/share/ssokit/dev-idp")
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-dev-idp-\(getuid())")
    }
}
