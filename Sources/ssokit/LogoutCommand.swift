import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitTokenCache

/// `ssokit oidc logout`: revokes the session's tokens where the provider allows it and forgets them.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Revoke (RFC 7009, when offered) and remove the cached session.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var clientAuth: ClientAuthOptions

    func run() async throws {
        try await CLIOutput.run {
            let authentication = try await clientAuth.authentication(for: client, store: storeOptions)
            try await CacheContext.with(storeOptions) { context in
                var cached: CachedTokens?
                var unreadable = false
                do throws(TokenCacheError) {
                    cached = try await context.cache.tokens(for: client.cacheKey)
                } catch {
                    guard error.code == .entryUnreadable else { throw error }
                    unreadable = true
                }
                guard cached != nil || unreadable else {
                    CLIOutput.success(["logged_out": .bool(false), "revoked": .bool(false)])
                    return
                }
                var revoked = false
                if let cached, let accessToken = cached.accessToken {
                    let tokens = TokenSet(
                        accessToken: accessToken, tokenType: cached.tokenType ?? "Bearer",
                        accessTokenExpiresAt: cached.accessTokenExpiresAt, refreshToken: cached.refreshToken,
                        idToken: cached.idToken, scope: nil)
                    try await HTTPSession.with { transport in
                        let party = OpenIDRelyingParty(
                            issuer: client.issuer, clientID: client.clientID, authentication: authentication,
                            transport: transport)
                        do {
                            try await party.revoke(tokens)
                            revoked = true
                        } catch let error as OIDCError where error.code == .unsupportedFeature {
                            revoked = false
                        }
                    }
                }
                // The local copy goes even when the provider cannot revoke (or the entry cannot be read): the user
                // asked to be logged out here.
                try await context.cache.remove(client.cacheKey)
                CLIOutput.success(["logged_out": .bool(true), "revoked": .bool(revoked)])
            }
        }
    }
}
