import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitTokenCache

/// `ssokit oidc refresh`: spends the cached refresh token and stores what comes back. The entry is re-read inside
/// the store's exclusive update, so two commands at once (or two hosts on one PostgreSQL store) never spend the same
/// refresh token.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Refresh the cached session's tokens.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var clientAuth: ClientAuthOptions
    @Flag(help: "Print only the JSON result.")
    var json = false

    func run() async throws {
        try await CLIOutput.run {
            let authentication = try await clientAuth.authentication(for: client, store: storeOptions)
            try await CacheContext.with(storeOptions) { context in
                guard try await context.cache.tokens(for: client.cacheKey) != nil else {
                    throw CLIFailure(
                        code: "not_logged_in", message: "no cached session for this app, issuer and client")
                }
                try await HTTPSession.with { transport in
                    let party = OpenIDRelyingParty(
                        issuer: client.issuer, clientID: client.clientID, authentication: authentication,
                        transport: transport)
                    let refreshed = try await context.cache.refreshedTokens(for: client.cacheKey) { current in
                        try await party.refreshedEntry(current)
                    }
                    let session = try OIDCSession(cached: refreshed)
                    if !json { CLIOutput.note(SessionOutput.summary(session)) }
                    CLIOutput.success(SessionOutput.members(session, userInfo: nil))
                }
            }
        }
    }
}
