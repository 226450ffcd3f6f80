import Foundation
import SSOKitCore
import SSOKitDevIdP
import SSOKitOIDC
import Synchronization

/// A development IdP with the test clients and SPs, started on a free loopback port for one test, and an HTTP
/// transport that never follows redirects.
final class DevIdPHarness: Sendable {
    let provider: DevIdentityProvider
    let issuer: String
    let transport = AsyncHTTPClientTransport()
    private let lines = LogLines()

    /// The request log so far.
    var log: [String] { lines.all }

    private init(clock: any SSOKitClock, lifetimes: DevIdPLifetimes, clients: [OIDCClientRegistration]) async throws {
        let lines = self.lines
        provider = try DevIdentityProvider(
            configuration: DevIdPConfiguration(
                keys: try DevIdPTestValues.keys.get(), users: try DevIdPTestValues.users.get(), clients: clients,
                serviceProviders: try DevIdPTestValues.serviceProviders(), lifetimes: lifetimes,
                requestLog: { line in lines.append(line) }, clock: clock))
        issuer = try await provider.start().absoluteString
    }

    /// Runs `body` with a started IdP and stops it afterwards, whatever happens.
    static func with<T>(
        clock: any SSOKitClock = SystemClock(), lifetimes: DevIdPLifetimes = .init(),
        clients: [OIDCClientRegistration] = DevIdPTestValues.clients(),
        _ body: (DevIdPHarness) async throws -> T
    ) async throws -> T {
        let harness = try await DevIdPHarness(clock: clock, lifetimes: lifetimes, clients: clients)
        do {
            let result = try await body(harness)
            await harness.stop()
            return result
        } catch {
            await harness.stop()
            throw error
        }
    }

    func stop() async {
        await provider.shutdown()
        try? await transport.shutdown()
    }

    /// A new browser with an empty cookie jar.
    func browser() -> TestBrowser { TestBrowser(transport: transport) }

    /// Our own relying party for `clientID`.
    func party(_ clientID: String, _ authentication: ClientAuthentication = .none) -> OpenIDRelyingParty {
        OpenIDRelyingParty(issuer: issuer, clientID: clientID, authentication: authentication, transport: transport)
    }

    /// An authorization URL for `clientID` with a fresh state and nonce and the S256 challenge of `pkce`.
    func authorizationURL(
        clientID: String = "public-app", pkce: PKCE, scope: String = "openid profile email",
        redirectURI: String = "http://127.0.0.1:40000/callback", extra: [(String, String)] = []
    ) -> String {
        let pairs =
            [
                ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"), ("scope", scope),
                ("state", RandomToken.make()), ("nonce", RandomToken.make()), ("code_challenge", pkce.challenge),
                ("code_challenge_method", "S256"),
            ] + extra
        return issuer + "/authorize?" + FormURLEncoding.encode(pairs)
    }

    /// Signs `browser` in as alice through the login form of `url` and returns the code the redirect carries.
    func code(_ browser: TestBrowser, url: String) async throws -> String {
        let answer = try await browser.signIn(at: url, username: "alice", password: DevIdPTestValues.password)
        guard let code = answer.locationQuery["code"] else { throw HarnessError("no code in \(answer.status)") }
        return code
    }

    /// POSTs a token-endpoint style form to `path`.
    func post(_ path: String, _ form: [(String, String)], headers: [(String, String)] = []) async throws
        -> TestResponse
    {
        try await browser().post(issuer + path, form: form, headers: headers)
    }

    /// A code exchange with `client_id` in the form, for a public client.
    func exchange(_ code: String, verifier: String, clientID: String = "public-app") async throws -> TestResponse {
        try await post(
            "/token",
            [
                ("grant_type", "authorization_code"), ("code", code),
                ("redirect_uri", "http://127.0.0.1:40000/callback"), ("code_verifier", verifier),
                ("client_id", clientID),
            ])
    }

    /// A refresh with `client_id` in the form, for a public client.
    func refresh(_ token: String, clientID: String = "public-app", scope: String? = nil) async throws -> TestResponse {
        var form = [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID)]
        if let scope { form.append(("scope", scope)) }
        return try await post("/token", form)
    }

    /// GET /userinfo with a bearer token.
    func userInfo(_ accessToken: String) async throws -> TestResponse {
        try await browser().get(issuer + "/userinfo", headers: [("Authorization", "Bearer \(accessToken)")])
    }
}

/// The lines the IdP logged.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
