import Foundation
import PostgresNIO
import SSOKitStore

/// Turns a `postgres://user[:password]@host[:port]/database[?sslmode=…]` URL into a client configuration.
///
/// TLS: a loopback host (`localhost`, `127.0.0.0/8`, `::1`) connects in plain unless `sslmode=require` or
/// `sslmode=verify-full` asks for TLS; any other host always uses TLS with certificate and host-name verification
/// (both modes verify), and `sslmode=disable` is refused for it. No error message holds the URL or its password.
enum PostgresConnectionURL {
    static func configuration(from text: String) throws(TokenCacheError) -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else { throw invalid("it is not a postgres:// URL") }
        guard let host = url.host.map(unbracketed), !host.isEmpty else { throw invalid("it names no host") }
        guard let username = url.user, !username.isEmpty else { throw invalid("it names no user") }
        let port = url.port ?? 5432
        guard (1...65_535).contains(port) else { throw invalid("its port is out of range") }
        guard url.fragment == nil else { throw invalid("it has a fragment") }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.contains("/") else { throw invalid("its path is not one database name") }

        var requested: String?
        for item in url.queryItems ?? [] {
            guard item.name == "sslmode", let value = item.value, ["disable", "require", "verify-full"].contains(value)
            else { throw invalid("only sslmode=disable, require or verify-full is supported as a parameter") }
            requested = value
        }
        let loopback = isLoopback(host)
        let tls: PostgresClient.Configuration.TLS
        switch requested ?? (loopback ? "disable" : "verify-full") {
        case "disable":
            guard loopback else {
                throw TokenCacheError(
                    .storeUnavailable, "refusing an unencrypted PostgreSQL connection to \(host), which is not loopback"
                )
            }
            tls = .disable
        default:
            tls = .require(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: username, password: url.password,
            database: database.isEmpty ? nil : database, tls: tls)
    }

    /// Whether `host` is this machine: `localhost`, an address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    private static func invalid(_ why: String) -> TokenCacheError {
        TokenCacheError(.storeUnavailable, "the PostgreSQL URL is not usable: \(why)")
    }
}
