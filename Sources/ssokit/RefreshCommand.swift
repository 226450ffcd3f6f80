import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC

/// `ssokit oidc refresh`: spends the cached refresh token and stores what comes back.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Refresh the cached session's tokens.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var clientAuth: ClientAuthOptions
    @Flag(help: "Print only the JSON result.")
    var json = false

    func run() async throws {
        let authentication = try await clientAuth.authentication(for: client)
        try await CLIOutput.run {
            let store = SessionStore(directory: client.cacheDirectory)
            guard let cached = try store.load(client.sessionKey) else {
                throw CLIFailure(code: "not_logged_in", message: "no cached session for this app, issuer and client")
            }
            try await HTTPSession.with { transport in
                let party = OpenIDRelyingParty(
                    issuer: client.issuer, clientID: client.clientID, authentication: authentication,
                    transport: transport)
                let previous = try IDTokenClaims(cached.claims)
                let login = try await party.refresh(cached.tokens, previousClaims: previous)
                let session = StoredSession(tokens: login.tokens, claims: login.claims.all)
                try store.save(session, for: client.sessionKey)
                if !json { CLIOutput.note(SessionOutput.summary(session)) }
                CLIOutput.success(SessionOutput.members(session, userInfo: nil))
            }
        }
    }
}
