import Crypto
import SSOKitCore
import SSOKitOIDC

/// The random values behind the relying party's cookies and keys: 256 bits as 43 base64url characters, stored
/// only as their SHA-256 digest, so that whoever reads the session storage learns no cookie.
enum SecretToken {
    static let length = 43

    /// A fresh token.
    static func make() -> String { RandomToken.make(byteCount: 32) }

    /// Whether `value` could be one of ours: exactly 43 base64url characters.
    static func isWellFormed(_ value: String) -> Bool {
        value.utf8.count == length
            && value.utf8.allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    /// The base64url SHA-256 digest of `value` (of any length: callers cap what they hash).
    static func digest(_ value: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(value.utf8))))
    }
}
