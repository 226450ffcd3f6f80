import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC

/// `ssokit oidc verify-id-token`: verifies one ID token and prints its claims.
struct VerifyIDTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-id-token", abstract: "Verify an ID token (OIDC Core §3.1.3.7) and print its claims.")

    @Argument(help: "The ID token (compact JWS), or - to read it from standard input.")
    var token: String?
    @Option(
        name: .customLong("token-file"),
        help: "Read the ID token from this file (- for standard input) instead of the command line.")
    var tokenFile: String?
    @Option(help: "The expected issuer.")
    var issuer: String
    @Option(name: .customLong("client-id"), help: "This client's ID; the audience must contain it.")
    var clientID: String
    @Option(help: "A JWK set file to take keys from.")
    var jwks: String?
    @Option(name: .customLong("jwks-uri"), help: "A JWK set URL to fetch keys from.")
    var jwksURI: String?
    @Option(help: "The nonce sent in the authentication request.")
    var nonce: String?
    @Option(name: .customLong("max-age"), help: "The max_age sent, in seconds.")
    var maxAge: Int64?
    @Option(name: .customLong("access-token"), help: "The access token issued alongside, to check at_hash.")
    var accessToken: String?
    @Option(
        name: .customLong("access-token-file"),
        help: "Read the access token from this file (- for standard input) instead of the command line.")
    var accessTokenFile: String?
    @Option(help: "The authorization code, to check c_hash.")
    var code: String?
    @Option(help: "Fix the clock: ISO 8601 or Unix seconds.")
    var now: TimeArgument?
    /// `--leeway`, the contract's name for the verifier's `clockSkew`.
    @Option(help: "Allowed clock skew in seconds.")
    var leeway: Int64 = 60
    @Option(name: .customLong("allowed-algs"), help: "Comma-separated allow-list, e.g. RS256,ES256.")
    var allowedAlgs: String?

    func validate() throws {
        if jwks != nil && jwksURI != nil { throw ValidationError("--jwks and --jwks-uri exclude each other") }
        if (token == nil) == (tokenFile == nil) { throw ValidationError("give the ID token as TOKEN or --token-file") }
        if accessToken != nil && accessTokenFile != nil {
            throw ValidationError("--access-token and --access-token-file exclude each other")
        }
        if [token, tokenFile, accessTokenFile].filter({ $0 == "-" }).count > 1 {
            throw ValidationError("only one token can come from standard input")
        }
        if leeway < 0 { throw ValidationError("--leeway must not be negative") }
    }

    func run() async throws {
        let clock = TimeArgument.clock(now)
        var configuration = IDTokenVerifier.Configuration(issuer: issuer, clientID: clientID, clockSkew: leeway)
        if let allowedAlgs {
            // Names SSOKit never accepts (none, HS256, ...) are dropped: they can only ever fail.
            configuration.allowedAlgorithms = allowedAlgs.split(separator: ",").compactMap {
                JWSAlgorithm(name: $0.trimmingCharacters(in: .whitespaces))
            }
        }
        let keySetFile: [UInt8]?
        if let jwks {
            guard let data = FileManager.default.contents(atPath: jwks) else {
                throw ValidationError("cannot read the --jwks file \(jwks)")
            }
            keySetFile = Array(data)
        } else {
            keySetFile = nil
        }
        try await CLIOutput.run {
            let idToken = try TokenInput.read(argument: token, file: tokenFile, what: "ID token") ?? ""
            let accessToken = try TokenInput.read(argument: accessToken, file: accessTokenFile, what: "access token")
            try await HTTPSession.with { transport in
                let keys: any VerificationKeySource
                if let keySetFile {
                    keys = StaticKeySource(try JSONWebKeySet(jsonBytes: keySetFile))
                } else if let jwksURI {
                    guard let url = URL(string: jwksURI) else { throw ValidationError("--jwks-uri is not a URL") }
                    keys = try JWKSCache(url: url, transport: transport, clock: clock)
                } else {
                    let metadata = try await DiscoveryClient(transport: transport, clock: clock).metadata(for: issuer)
                    keys = try JWKSCache(url: metadata.jwksURI, transport: transport, clock: clock)
                }
                let verifier = IDTokenVerifier(configuration: configuration, keys: keys, clock: clock)
                let claims = try await verifier.verify(
                    idToken,
                    expecting: IDTokenExpectations(
                        nonce: nonce, maxAge: maxAge, accessToken: accessToken, authorizationCode: code))
                CLIOutput.success(claims.all)
            }
        }
    }
}
