import ArgumentParser
import Foundation

/// Where tokens and rights are kept, and how the cache key is protected. Shared by the `oidc` session commands,
/// `cache` and `rights`.
struct StoreOptions: ParsableArguments {
    @Option(help: "The token cache folder, holding cache.sqlite (default: $XDG_CACHE_HOME/ssokit or ~/.cache/ssokit).")
    var cache: String?
    @Option(
        help:
            "A PostgreSQL URL (postgres://user@host[:port]/database) for a shared store; also $SSOKIT_POSTGRES_URL. Keep the password in $PGPASSFILE or ~/.pgpass, not on the command line."
    )
    var postgres: String?
    @Flag(
        help:
            "Keep the cache key as the secret of a passphrase right (asked on the terminal, or SSOKIT_PASSPHRASE) instead of the key file."
    )
    var protect = false

    func validate() throws {
        if cache != nil && postgres != nil { throw ValidationError("--cache and --postgres exclude each other") }
    }

    /// The PostgreSQL store's URL, with its password: `--postgres`, else `$SSOKIT_POSTGRES_URL` unless `--cache`
    /// is given; a URL without a password takes it from the password file (``PostgresPassword``).
    func postgresURL() throws -> String? {
        let environment = ProcessInfo.processInfo.environment["SSOKIT_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
        guard let url = postgres ?? (cache == nil ? environment : nil) else { return nil }
        if postgres != nil, URLComponents(string: url)?.password != nil {
            CLIOutput.note("note: a password in --postgres is visible to other local users; use PGPASSFILE")
        }
        return try PostgresPassword.completing(url)
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
