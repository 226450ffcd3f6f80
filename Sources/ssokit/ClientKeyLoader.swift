import ArgumentParser
import Foundation
import JWTKit
import SSOKitOIDC

/// Loads the `--client-key` PEM (EC P-256 → ES256, RSA → RS256) into a `private_key_jwt` signer.
enum ClientKeyLoader {
    static func signer(path: String, keyID: String?) async throws -> any ClientAssertionSigner {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the --client-key file \(path)")
        }
        let pem = String(decoding: data, as: UTF8.self)
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
