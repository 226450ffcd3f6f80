import ArgumentParser
import Foundation
import SSOKitOIDC

/// Loads the `--client-key` PEM (EC P-256 → ES256, RSA → RS256) into a `private_key_jwt` signer. The file must be
/// private to the user (``PrivateFile``).
enum ClientKeyLoader {
    static func signer(path: String, keyID: String?) async throws -> any ClientAssertionSigner {
        let pem = String(decoding: try PrivateFile.read(path), as: UTF8.self)
        do {
            return try PrivateKeyClientAssertionSigner(pem: pem, keyID: keyID)
        } catch {
            throw ValidationError("--client-key holds neither a P-256 nor an RSA private key")
        }
    }
}
