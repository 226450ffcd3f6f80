import ArgumentParser
import Foundation
import SSOKitOIDC

/// The options every `ssokit oidc` session command shares.
struct ClientOptions: ParsableArguments {
    @Option(help: "The provider's issuer identifier (https, or http on a loopback host).")
    var issuer: String
    @Option(name: .customLong("client-id"), help: "The client ID.")
    var clientID: String
    @Option(name: .customLong("client-secret"), help: "The client secret, for confidential clients.")
    var clientSecret: String?
    @Option(help: "The token cache folder (default: $XDG_CACHE_HOME/ssokit or ~/.cache/ssokit).")
    var cache: String?
    @Option(help: "The calling app's bundle identifier; sessions are kept apart per app.")
    var app: String = "ssokit"

    var cacheDirectory: URL {
        if let cache { return URL(fileURLWithPath: cache) }
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CACHE_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("ssokit")
        }
        return URL(fileURLWithPath: environment["HOME"] ?? ".").appendingPathComponent(".cache/ssokit")
    }

    var sessionKey: SessionKey { SessionKey(app: app, issuer: issuer, clientID: clientID) }

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
