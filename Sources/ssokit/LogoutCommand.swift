import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC

/// `ssokit oidc logout`: revokes the session's tokens where the provider allows it and forgets them.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Revoke (RFC 7009, when offered) and remove the cached session.")

    @OptionGroup var client: ClientOptions
    @OptionGroup var clientAuth: ClientAuthOptions

    func run() async throws {
        let authentication = try await clientAuth.authentication(for: client)
        try await CLIOutput.run {
            let store = SessionStore(directory: client.cacheDirectory)
            guard let cached = try store.load(client.sessionKey) else {
                CLIOutput.success(["logged_out": .bool(false), "revoked": .bool(false)])
                return
            }
            var revoked = false
            try await HTTPSession.with { transport in
                let party = OpenIDRelyingParty(
                    issuer: client.issuer, clientID: client.clientID, authentication: authentication,
                    transport: transport)
                do {
                    try await party.revoke(cached.tokens)
                    revoked = true
                } catch let error as OIDCError where error.code == .unsupportedFeature {
                    revoked = false
                }
            }
            // The local copy goes even when the provider cannot revoke: the user asked to be logged out here.
            _ = try store.remove(client.sessionKey)
            CLIOutput.success(["logged_out": .bool(true), "revoked": .bool(revoked)])
        }
    }
}
