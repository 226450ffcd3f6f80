// The adapter as a library: load a profile, answer one request from an app, ask the user when it must.
//
//     printf '%s\n%s\n' USER PASSWORD | swift run EmbedAdapterExample sso.json com.example.mail https://idp.example.com
import Foundation
import SSOKitCore
import SSOKitExtension
import SSOKitStore
import SSOKitTokenCache

struct Files: ProfileFileReader {  // the profile's relative paths (secrets, metadata), read from disk
    func contents(ofFile path: String, maximumBytes: Int) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(maximumBytes))
    }
}
let arguments = CommandLine.arguments
guard arguments.count == 4, let profile = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: EmbedAdapterExample PROFILE BUNDLE_ID IDP_URL\n".utf8))
    exit(64)
}
let directory = URL(fileURLWithPath: arguments[1]).deletingLastPathComponent().path
let catalog = try ProfileCatalog(ProfileLoader(fileReader: Files()).load(Array(profile), directory: directory))
let transport = AsyncHTTPClientTransport()
let cache = TokenCache(store: InMemoryTokenCacheStore(), key: .generate())  // SQLiteTokenCacheStore to keep it
let adapter = RedirectExtension(
    catalog: catalog, environment: ExtensionEnvironment(tokenCache: cache, transport: transport))

var result = await adapter.authorize(
    AuthorizationRequest(url: URL(string: arguments[3]), callerBundleIdentifier: arguments[2], operation: .login))
if case .needsInteraction(let interaction) = result, case .credentials = interaction.kind {
    let (user, password) = (readLine() ?? "", readLine() ?? "")  // a real host asks in its own UI
    result = await adapter.resume(
        interaction: interaction.id, with: .credentials(["username": user, "password": password]))
}
switch result {
case .httpResponse(let response): print("HTTP \(response.status), \(response.countedBytes) bytes")
case .failure(let failure): print("failed: \(failure.code)/\(failure.reason)")
default: print(result.kind)
}
try await transport.shutdown()
