import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitTokenCache

/// `ssokit cache list|show|purge`: inspect and clean the token cache. Tokens are printed only with `--reveal`.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Inspect and clean the token cache (tokens only with --reveal).",
        subcommands: [CacheListCommand.self, CacheShowCommand.self, CachePurgeCommand.self])
}

/// What may be printed about an entry; tokens only when `reveal`.
enum CacheEntryOutput {
    static func members(key: TokenCacheKey, tokens: CachedTokens, reveal: Bool) -> [String: JSONValue] {
        func time(_ date: Date?) -> JSONValue { date.map { .integer(Int64($0.timeIntervalSince1970)) } ?? .null }
        var members: [String: JSONValue] = [
            "app": .string(key.application), "issuer": .string(key.issuer), "client_id": .string(key.clientID),
            "scopes": .array(tokens.scopes.map(JSONValue.string)),
            "token_type": tokens.tokenType.map(JSONValue.string) ?? .null,
            "access_token_expires_at": time(tokens.accessTokenExpiresAt),
            "has_access_token": .bool(tokens.accessToken != nil),
            "has_refresh_token": .bool(tokens.refreshToken != nil), "has_id_token": .bool(tokens.idToken != nil),
        ]
        if let saml = tokens.samlSession {
            members["saml_name_id"] = .string(saml.nameID)
            members["saml_session_not_on_or_after"] = time(saml.notOnOrAfter)
        }
        if reveal {
            members["access_token"] = tokens.accessToken.map(JSONValue.string) ?? .null
            members["refresh_token"] = tokens.refreshToken.map(JSONValue.string) ?? .null
            members["id_token"] = tokens.idToken.map(JSONValue.string) ?? .null
        }
        return members
    }
}

/// `ssokit cache list [--app ID]`.
struct CacheListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List one app's cached sessions (no tokens).")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The calling app's bundle identifier.")
    var app: String = "ssokit"

    func run() async throws {
        try await CLIOutput.run {
            try await CacheContext.with(storeOptions) { context in
                let listing = try await context.cache.entries(application: app)
                CLIOutput.success([
                    "app": .string(app),
                    "entries": .array(
                        listing.entries.map {
                            .object(CacheEntryOutput.members(key: $0.key, tokens: $0.tokens, reveal: false))
                        }),
                    "unreadable": .integer(Int64(listing.unreadable.count)),
                ])
            }
        }
    }
}

/// `ssokit cache show --issuer URL --client-id ID [--app ID] [--reveal]`.
struct CacheShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one cached session; its tokens only with --reveal.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The provider's issuer identifier.")
    var issuer: String
    @Option(name: .customLong("client-id"), help: "The client ID.")
    var clientID: String
    @Option(help: "The calling app's bundle identifier.")
    var app: String = "ssokit"
    @Flag(help: "Also print the access, refresh and ID tokens.")
    var reveal = false

    func run() async throws {
        try await CLIOutput.run {
            try await CacheContext.with(storeOptions) { context in
                let key = TokenCacheKey(application: app, issuer: issuer, clientID: clientID)
                guard let tokens = try await context.cache.tokens(for: key) else {
                    throw CLIFailure(
                        code: "not_logged_in", message: "no cached session for this app, issuer and client")
                }
                CLIOutput.success(CacheEntryOutput.members(key: key, tokens: tokens, reveal: reveal))
            }
        }
    }
}

/// `ssokit cache purge [--app ID] [--all]`.
struct CachePurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Remove expired entries (of one app, or of every app without --app).")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only this app's entries.")
    var app: String?
    @Flag(help: "Remove every entry of --app, expired or not.")
    var all = false

    func validate() throws {
        if all && app == nil { throw ValidationError("--all needs --app") }
    }

    func run() async throws {
        try await CLIOutput.run {
            try await CacheContext.with(storeOptions) { context in
                if all, let app {
                    let listing = try await context.cache.entries(application: app)
                    for entry in listing.entries { try await context.cache.remove(entry.key) }
                    for canonical in listing.unreadable {
                        if let key = TokenCacheKey(canonical: canonical) { try await context.cache.remove(key) }
                    }
                    CLIOutput.success(["purged": .integer(Int64(listing.entries.count + listing.unreadable.count))])
                } else {
                    let purged = try await context.cache.purgeExpired(application: app)
                    CLIOutput.success(["purged": .integer(Int64(purged))])
                }
            }
        }
    }
}
