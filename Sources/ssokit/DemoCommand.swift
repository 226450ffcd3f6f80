import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitDemo
import SSOKitOIDC

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Replay Extensible Enterprise SSO's demo on loopback: browser, native apps, SAML, logout.",
        discussion: """
            Starts the development IdP, two web apps, the redirect-extension adapter on an embedded SQLite cache in \
            a temporary folder, and the intercepting proxy with its PAC file, all on 127.0.0.1, then runs each step \
            and prints one line per step. Exit 0 only if every step succeeded.
            """)

    @Flag(help: "Print one JSON object per step instead of a line.")
    var json = false
    @Flag(help: "Leave the IdP, the web apps and the proxy running afterwards, and say how to try them in Chromium.")
    var keep = false

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ssokit-demo-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let servers: DemoServers
        do {
            servers = try await DemoServers.start(cacheFile: folder.appendingPathComponent("cache.sqlite").path)
        } catch {
            CLIOutput.note("ssokit demo: cannot start: \(error)")
            throw ExitCode(1)
        }
        if !json {
            CLIOutput.note(
                "ssokit demo: dev IdP \(servers.identityProviderURL), web apps \(servers.webAppsURL), "
                    + "proxy 127.0.0.1:\(servers.proxyPort); cache in \(folder.path)")
        }
        let json = json
        let passed = await SSODemo(servers: servers).run { step in
            print(json ? step.jsonObject.jsonText : step.line)
        }
        if keep {
            CLIOutput.note(
                """
                Still running (Ctrl-C stops it). Try it in Chromium (it never proxies loopback through a PAC, so name \
                the proxy and stop the loopback bypass):
                  chromium --user-data-dir=$(mktemp -d) --proxy-server=127.0.0.1:\(servers.proxyPort) \
                --proxy-bypass-list='<-loopback>' \(servers.webAppsURL)/oidc/ \(servers.webAppsURL)/saml/
                The IdP's login page asks for user \(servers.username), password \(servers.password) only where the \
                extension is not in the way; through the proxy the extension signs in for you.
                """)
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
        await servers.shutdown()
        if !passed { throw ExitCode(1) }
    }
}
