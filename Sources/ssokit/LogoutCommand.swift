import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache

/// `ssokit oidc logout`: ends the cached session, always, then asks the provider to revoke its tokens.
///
/// The entry is removed first (``TokenCache/endSession(for:)``), so whatever the revocation endpoint answers
/// (401, 5xx, a timeout, nothing at all) no usable session is left behind: the answer is then
/// `{"logged_out": true, "revoked": false, "revocation_error": "<code>"}` with exit status 0. Only a store that
/// cannot remove the entry makes it exit 1.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Remove the cached session, revoke its tokens (RFC 7009, when offered), optionally end the "
            + "provider's session (RP-Initiated Logout).")

    @OptionGroup var client: ClientOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var clientAuth: ClientAuthOptions
    @Flag(
        name: .customLong("end-session"),
        help:
            "Also end the provider's session (end_session_endpoint): print its URL, or open it with --browser-command.")
    var endSession = false
    @Option(
        name: .customLong("post-logout-redirect-uri"),
        help: "With --end-session: where the provider sends the browser afterwards (must be registered).")
    var postLogoutRedirectURI: String?
    @Option(
        name: .customLong("browser-command"), help: "With --end-session: command run with the URL as last argument.")
    var browserCommand: String?
    @Option(name: .customLong("timeout"), help: "Seconds the provider gets to answer the revocation (default 10).")
    var timeout: Int = 10

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        if !endSession && (postLogoutRedirectURI != nil || browserCommand != nil) {
            throw ValidationError("--post-logout-redirect-uri and --browser-command need --end-session")
        }
    }

    func run() async throws {
        try await CLIOutput.run {
            // Usage errors stop here, before anything is removed; any other failure to build the client's
            // authentication only means the revocation cannot be made.
            let authentication: Result<ClientAuthentication, RevocationSkipped>
            do {
                authentication = .success(try await clientAuth.authentication(for: client, store: storeOptions))
            } catch let error as ValidationError {
                throw error
            } catch {
                authentication = .failure(RevocationSkipped(code: Self.code(of: error)))
            }
            let ended = try await CacheContext.with(storeOptions) { context in
                try await context.cache.endSession(for: client.cacheKey)
            }
            guard ended.existed else {
                CLIOutput.success(["logged_out": .bool(false), "revoked": .bool(false), "revocation_error": .null])
                return
            }
            var result: [String: JSONValue] = ["logged_out": .bool(true)]
            guard let tokens = ended.tokens else {
                result["revoked"] = .bool(false)
                result["revocation_error"] = .string(TokenCacheError.Code.entryUnreadable.description)
                CLIOutput.success(result)
                return
            }
            try await HTTPSession.with { transport in
                let revocation = await revoke(tokens, authentication: authentication, transport: transport)
                result["revoked"] = .bool(revocation.revoked)
                result["revocation_error"] = revocation.error.map { .string($0) } ?? .null
                if endSession {
                    for (name, value) in await endProviderSession(tokens, transport: transport) { result[name] = value }
                }
            }
            CLIOutput.success(result)
        }
    }

    /// Revokes at the provider; any failure is reported, not thrown: the local session is already gone.
    private func revoke(
        _ tokens: CachedTokens, authentication: Result<ClientAuthentication, RevocationSkipped>,
        transport: any HTTPTransport
    ) async -> (revoked: Bool, error: String?) {
        let built: ClientAuthentication
        switch authentication {
        case .success(let value): built = value
        case .failure(let skipped): return (false, skipped.code)
        }
        let party = OpenIDRelyingParty(
            issuer: client.issuer, clientID: client.clientID, authentication: built, transport: transport)
        let outcome = await party.revokeSession(
            refreshToken: tokens.refreshToken, accessToken: tokens.accessToken, timeout: .seconds(timeout))
        return (outcome.revoked, outcome.error?.code.description)
    }

    /// The RP-Initiated Logout URL, printed in the result (it holds the ID token, as `id_token_hint`) or opened with
    /// the browser command; a provider without an end-session endpoint is reported as `end_session_error`.
    private func endProviderSession(_ tokens: CachedTokens, transport: any HTTPTransport) async
        -> [String: JSONValue]
    {
        let party = OpenIDRelyingParty(
            issuer: client.issuer, clientID: client.clientID, authentication: .none, transport: transport)
        do {
            let request = try await party.endSessionRequest(
                idTokenHint: tokens.idToken, postLogoutRedirectURI: postLogoutRedirectURI)
            guard let browserCommand else { return ["end_session_url": .string(request.url.absoluteString)] }
            try BrowserLauncher.open(request.url, command: browserCommand)
            return ["end_session_opened": .bool(true)]
        } catch {
            return ["end_session_error": .string(Self.code(of: error))]
        }
    }

    private static func code(of error: any Error) -> String {
        switch error {
        case let error as OIDCError: error.code.description
        case let error as CLIFailure: error.code
        case let error as TokenCacheError: error.code.description
        case let error as RightError: error.code.description
        default: "client_authentication_failed"
        }
    }
}

/// Why no revocation was attempted: the client's authentication could not be built (a key file or right).
private struct RevocationSkipped: Error {
    let code: String
}
