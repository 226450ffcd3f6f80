import ArgumentParser
import Foundation

/// Where tokens and rights are kept, and how the cache key is protected. Shared by the `oidc` session commands,
/// `cache` and `rights`.
struct StoreOptions: ParsableArguments {
    @Option(help: "The token cache folder, holding cache.sqlite (default: $XDG_CACHE_HOME/ssokit or ~/.cache/ssokit).")
    var cache: String?
    @Option(help: "A PostgreSQL URL (postgres://user[:password]@host[:port]/database) for a shared store.")
    var postgres: String?
    @Flag(
        help:
            "Keep the cache key as the secret of a passphrase right (asked on the terminal, or SSOKIT_PASSPHRASE) instead of the key file."
    )
    var protect = false

    func validate() throws {
        if cache != nil && postgres != nil { throw ValidationError("--cache and --postgres exclude each other") }
    }

    var cacheDirectory: URL {
        if let cache { return URL(fileURLWithPath: cache) }
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CACHE_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("ssokit")
        }
        return URL(fileURLWithPath: environment["HOME"] ?? ".").appendingPathComponent(".cache/ssokit")
    }
}
