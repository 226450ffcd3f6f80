import ArgumentParser
import Foundation
import SSOKitExtension
import SSOKitOIDC
import SSOKitRights
import SSOKitTokenCache

/// The options every `ssokit oidc` session command shares.
struct ClientOptions: ParsableArguments {
    @Option(help: "The provider's issuer identifier (https, or http on a loopback host).")
    var issuer: String
    @Option(name: .customLong("client-id"), help: "The client ID.")
    var clientID: String
    @Option(
        name: .customLong("client-secret"),
        help:
            "The client secret, for confidential clients (visible to other local users: prefer the file or SSOKIT_CLIENT_SECRET)."
    )
    var clientSecret: String?
    @Option(
        name: .customLong("client-secret-file"),
        help: "A file (mode 0600) holding the client secret; a final newline is ignored.")
    var clientSecretFile: String?
    @Option(help: "The calling app's bundle identifier; sessions are kept apart per app.")
    var app: String = "ssokit"

    /// The cache entry of this app, provider and client. The CLI keeps one session per (app, issuer, client), so
    /// the entry key's scope set is empty; the granted scopes are stored in the entry.
    var cacheKey: TokenCacheKey { TokenCacheKey(application: app, issuer: issuer, clientID: clientID) }

    func validate() throws {
        if clientSecret != nil && clientSecretFile != nil {
            throw ValidationError("--client-secret and --client-secret-file exclude each other")
        }
    }

    /// The client secret: `--client-secret`, else the `--client-secret-file` (which must be private to the user),
    /// else `$SSOKIT_CLIENT_SECRET`, else none.
    func secret() throws -> String? {
        if let clientSecret {
            CLIOutput.note("note: --client-secret is visible to other local users; prefer --client-secret-file")
            return clientSecret
        }
        if let clientSecretFile {
            var text = String(decoding: try PrivateFile.read(clientSecretFile, limit: 4096), as: UTF8.self)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            guard !text.isEmpty else {
                throw CLIFailure(code: "invalid_client_secret", message: "\(clientSecretFile) is empty")
            }
            return text
        }
        guard let value = ProcessInfo.processInfo.environment["SSOKIT_CLIENT_SECRET"], !value.isEmpty else {
            return nil
        }
        return value
    }

    /// The client authentication: an explicit method, else `client_secret_basic` with a secret, else `none`.
    func authentication(method: String?, assertionSigner: (any ClientAssertionSigner)? = nil) throws
        -> ClientAuthentication
    {
        let clientSecret = try secret()
        switch method ?? (clientSecret == nil ? "none" : "client_secret_basic") {
        case "none": return .none
        case "client_secret_basic":
            guard let clientSecret else { throw ValidationError("client_secret_basic needs a client secret") }
            return .clientSecretBasic(clientSecret)
        case "client_secret_post":
            guard let clientSecret else { throw ValidationError("client_secret_post needs a client secret") }
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
