import ArgumentParser
import Foundation
import SSOKitOIDC
import SSOKitRights
import SSOKitTokenCache

/// The options every `ssokit oidc` session command shares.
struct ClientOptions: ParsableArguments {
    @Option(help: "The provider's issuer identifier (https, or http on a loopback host).")
    var issuer: String
    @Option(name: .customLong("client-id"), help: "The client ID.")
    var clientID: String
    @Option(name: .customLong("client-secret"), help: "The client secret, for confidential clients.")
    var clientSecret: String?
    @Option(help: "The calling app's bundle identifier; sessions are kept apart per app.")
    var app: String = "ssokit"

    /// The cache entry of this app, provider and client. The CLI keeps one session per (app, issuer, client), so
    /// the entry key's scope set is empty; the granted scopes are stored in the entry.
    var cacheKey: TokenCacheKey { TokenCacheKey(application: app, issuer: issuer, clientID: clientID) }

    /// The client authentication: an explicit method, else `client_secret_basic` with a secret, else `none`.
    func authentication(method: String?, assertionSigner: (any ClientAssertionSigner)? = nil) throws
        -> ClientAuthentication
    {
        switch method ?? (clientSecret == nil ? "none" : "client_secret_basic") {
        case "none": return .none
        case "client_secret_basic":
            guard let clientSecret else { throw ValidationError("client_secret_basic needs --client-secret") }
            return .clientSecretBasic(clientSecret)
        case "client_secret_post":
            guard let clientSecret else { throw ValidationError("client_secret_post needs --client-secret") }
            return .clientSecretPost(clientSecret)
        case "private_key_jwt":
            guard let assertionSigner else { throw ValidationError("private_key_jwt needs --client-key") }
            return .privateKeyJWT(assertionSigner)
        case let other:
            throw ValidationError("unknown --client-auth \(other)")
        }
    }
}

/// How the client authenticates, shared by `login`, `refresh` and `logout`.
struct ClientAuthOptions: ParsableArguments {
    @Option(
        name: .customLong("client-auth"),
        help: "client_secret_basic, client_secret_post, none or private_key_jwt (default: basic with a secret).")
    var clientAuth: String?
    @Option(name: .customLong("client-key"), help: "PEM private key (P-256 or RSA) for private_key_jwt.")
    var clientKey: String?
    @Option(name: .customLong("client-key-id"), help: "The kid to put in private_key_jwt assertions.")
    var clientKeyID: String?
    @Option(
        name: .customLong("client-key-right"),
        help: "Sign private_key_jwt assertions with this persisted right's key (see `ssokit rights`).")
    var clientKeyRight: String?

    func authentication(for client: ClientOptions, store: StoreOptions) async throws -> ClientAuthentication {
        var signer: (any ClientAssertionSigner)?
        if let clientKey { signer = try await ClientKeyLoader.signer(path: clientKey, keyID: clientKeyID) }
        if let clientKeyRight {
            guard clientKey == nil else {
                throw ValidationError("--client-key and --client-key-right exclude each other")
            }
            let right = try await CacheContext.withRights(store) { rights in
                try await rights.right(forIdentifier: clientKeyRight, authenticator: TerminalAuthenticator())
            }
            try await right.authorize(localizedReason: "Sign the client assertion for \(client.clientID)")
            signer = RightClientAssertionSigner(right: right, keyID: clientKeyID)
        }
        return try client.authentication(method: clientAuth, assertionSigner: signer)
    }
}
