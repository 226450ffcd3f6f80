import Foundation
import SSOKitCore
import SSOKitExtension

/// Reads `--profile FILE` (with `--trust PEM_FILE` for a signed one) into a catalog; relative paths in the profile
/// are resolved against its folder. Shared by `ssokit authorize` and `ssokit serve` (which reads it again on SIGHUP).
enum ProfileFile {
    static func catalog(_ path: String, trust: String?, clock: any SSOKitClock) throws -> ProfileCatalog {
        let anchors = try trust.map { try ProfileTrustAnchors(pem: SAMLFileInput.text($0)) }
        let loader = ProfileLoader(trustAnchors: anchors, fileReader: LocalProfileFiles(), clock: clock)
        let bytes = try SAMLFileInput.bytes(path, limit: loader.limits.maximumProfileBytes + 1)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try ProfileCatalog(loader.load(bytes, directory: directory))
    }
}
