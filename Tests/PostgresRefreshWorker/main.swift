import Foundation
import SSOKitPostgres
import SSOKitTokenCache

// Test helper for the two-process refresh test. Connects to the PostgreSQL URL in argv[1] and opens the cache with
// the base64 key in argv[2]; creates `argv[3]/ready-argv[4]` and waits (at most 60 s) for `argv[3]/go`; then asks
// for valid tokens for the shared, stale entry. Its refresh function prints `refresh <refresh token>` when it runs
// and takes 300 ms (a token endpoint round trip); at the end it prints `tokens <access token> <refresh token>`.
func say(_ line: String) { FileHandle.standardOutput.write(Data("\(line)\n".utf8)) }

let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: PostgresRefreshWorker URL KEY DIRECTORY NAME\n".utf8))
    exit(64)
}
let name = arguments[4]
let directory = URL(fileURLWithPath: arguments[3])
let store = try await PostgresTokenCacheStore.connect(url: arguments[1])
let cache = TokenCache(store: store, key: try CacheEncryptionKey(base64: arguments[2]))
_ = FileManager.default.createFile(atPath: directory.appendingPathComponent("ready-\(name)").path, contents: nil)
let go = directory.appendingPathComponent("go").path
let deadline = Date().addingTimeInterval(60)
while !FileManager.default.fileExists(atPath: go) {
    guard Date() < deadline else { exit(65) }
    try await Task.sleep(for: .milliseconds(2))
}
let key = TokenCacheKey(application: "com.example.shared", issuer: "https://idp.example.com", clientID: "shared")
let tokens = try await cache.validTokens(for: key) { current in
    say("refresh \(current.refreshToken ?? "-")")
    try await Task.sleep(for: .milliseconds(300))
    return CachedTokens(
        accessToken: "at-\(name)", refreshToken: "rt-\(name)", accessTokenExpiresAt: Date().addingTimeInterval(3600))
}
say("tokens \(tokens.accessToken ?? "-") \(tokens.refreshToken ?? "-")")
await store.shutdown()
