import ArgumentParser
import Foundation
import JWTKit
import SSOKitOIDC

/// Loads the `--client-key` PEM (EC P-256 → ES256, RSA → RS256) into a `private_key_jwt` signer. The file must be
/// private to the user (``PrivateFile``).
enum ClientKeyLoader {
    static func signer(path: String, keyID: String?) async throws -> any ClientAssertionSigner {
        let pem = String(decoding: try PrivateFile.read(path), as: UTF8.self)
        let keys = JWTKeyCollection()
        let kid = keyID.map { JWKIdentifier(string: $0) }
        if let key = try? ES256PrivateKey(pem: pem) {
            await keys.add(ecdsa: key, kid: kid)
        } else if let key = try? Insecure.RSA.PrivateKey(pem: pem) {
            await keys.add(rsa: key, digestAlgorithm: .sha256, kid: kid)
        } else {
            throw ValidationError("--client-key holds neither a P-256 nor an RSA private key")
        }
        return JWTKitClientAssertionSigner(keys: keys, keyID: keyID)
    }
}
