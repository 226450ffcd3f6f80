import Crypto
import SSOKitCore
import SSOKitOIDC

/// The random secrets the IdP hands out (session cookies, codes, tokens, login handles) and the keys under which it
/// files them: a secret is never stored itself, only its SHA-256, so the stores hold nothing a browser or client
/// could replay.
enum SecretKey {
    /// A fresh 256-bit secret, base64url.
    static func make() -> String { RandomToken.make(byteCount: 32) }

    /// The map key for `secret`.
    static func of(_ secret: String) -> String { Base64URL.encode(SHA256.hash(data: Array(secret.utf8))) }
}
