import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitTokenCache

/// `ssokit oidc login`: authorization code + PKCE through a browser and a loopback redirect, or the device grant.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in (authorization code with PKCE, or --device) and cache the tokens.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var clientAuth: ClientAuthOptions
    @Option(help: "Space-separated scopes.")
    var scope: String = "openid profile email"
    @Option(name: .customLong("redirect-port"), help: "Loopback port for the redirect (0 = any free port).")
    var redirectPort: Int = 0
    @Option(name: .customLong("browser-command"), help: "Command run with the authorization URL as last argument.")
    var browserCommand: String?
    @Option(name: .customLong("timeout"), help: "Seconds to wait for the login to finish.")
    var timeout: Int = 300
    @Flag(help: "Use the device authorization grant instead of a browser redirect.")
    var device = false
    @Flag(help: "Also fetch the UserInfo claims.")
    var userinfo = false
    @Flag(help: "Print only the JSON result.")
    var json = false

    func validate() throws {
        guard (0...65535).contains(redirectPort) else { throw ValidationError("--redirect-port must be 0...65535") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run() async throws {
        let scopes = scope.split(separator: " ").map(String.init)
        try await CLIOutput.run {
            let authentication = try await clientAuth.authentication(for: client, store: storeOptions)
            try await CacheContext.with(storeOptions) { context in
                try await HTTPSession.with { transport in
                    let party = OpenIDRelyingParty(
                        issuer: client.issuer, clientID: client.clientID, authentication: authentication,
                        transport: transport)
                    let login =
                        device
                        ? try await deviceLogin(party, scopes: scopes) : try await browserLogin(party, scopes: scopes)
                    let userInfo = userinfo ? try await party.userInfo(for: login) : nil
                    let session = OIDCSession(login: login)
                    // Durable before the result is printed.
                    try await context.cache.store(session.cachedTokens(scopes: scopes), for: client.cacheKey)
                    if !json { CLIOutput.note(SessionOutput.summary(session)) }
                    CLIOutput.success(SessionOutput.members(session, userInfo: userInfo))
                }
            }
        }
    }

    private func browserLogin(_ party: OpenIDRelyingParty, scopes: [String]) async throws -> OpenIDLogin {
        let listener = try await LoopbackRedirectListener(port: redirectPort)
        do {
            let request = try await party.authorizationRequest(redirectURI: listener.redirectURI, scopes: scopes)
            listener.expect(state: request.state)
            try BrowserLauncher.open(request.url, command: browserCommand)
            let query = try await listener.waitForCallback(timeout: .seconds(timeout))
            await listener.close()
            return try await party.completeLogin(callbackQuery: query, request: request)
        } catch {
            await listener.close()
            throw error
        }
    }

    private func deviceLogin(_ party: OpenIDRelyingParty, scopes: [String]) async throws -> OpenIDLogin {
        let client = try await party.deviceClient()
        let authorization = try await client.start(scopes: scopes.contains("openid") ? scopes : ["openid"] + scopes)
        CLIOutput.note("To log in, visit \(authorization.verificationURI) and enter the code \(authorization.userCode)")
        if let browserCommand,
            let url = URL(string: authorization.verificationURIComplete ?? authorization.verificationURI)
        {
            try BrowserLauncher.open(url, command: browserCommand)
        }
        let tokens = try await client.poll(authorization)
        return try await party.verified(tokens, expectations: IDTokenExpectations())
    }
}
