import Foundation
import SSOKitStore
import SSOKitTokenCache

// Test helper for the SQLite crash test: stores entries 0, 1, 2, ... into the cache file named by argv[1] under the
// base64 key in argv[2] (starting at argv[3]), and prints each number only after its store call returned, until
// it is killed.
let arguments = CommandLine.arguments
guard arguments.count == 4, let start = Int(arguments[3]) else { exit(64) }
let key = try CacheEncryptionKey(base64: arguments[2])
let cache = TokenCache(store: try SQLiteTokenCacheStore(path: arguments[1]), key: key)
var index = start
while index < start + 1_000_000 {
    let entry = TokenCacheKey(application: "crash", issuer: "https://idp.example.com", clientID: "c\(index)")
    try await cache.store(CachedTokens(accessToken: "at-\(index)", refreshToken: "rt-\(index)"), for: entry)
    FileHandle.standardOutput.write(Data("\(index)\n".utf8))
    index += 1
}
