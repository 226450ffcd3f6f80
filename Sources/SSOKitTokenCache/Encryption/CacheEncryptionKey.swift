import Crypto
import Foundation
import SSOKitStore

/// The 256-bit AES key that seals every value the cache stores. It is supplied by the caller (a key file, or a
/// Right's secret) and never stored beside the data.
public struct CacheEncryptionKey: Sendable {
    let key: SymmetricKey

    /// A new random key.
    public static func generate() -> CacheEncryptionKey { CacheEncryptionKey(key: SymmetricKey(size: .bits256)) }

    /// A key from exactly 32 bytes.
    public init(bytes: [UInt8]) throws(TokenCacheError) {
        guard bytes.count == 32 else { throw TokenCacheError(.invalidKey, "a cache key is 32 bytes") }
        key = SymmetricKey(data: bytes)
    }

    /// A key from its base64 text (as a key file holds it, surrounding whitespace ignored).
    public init(base64: String) throws(TokenCacheError) {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TokenCacheError(.invalidKey, "the cache key is not base64")
        }
        try self.init(bytes: Array(data))
    }

    private init(key: SymmetricKey) { self.key = key }

    /// The key as base64 text, for writing a key file.
    public var base64: String { key.withUnsafeBytes { Data($0).base64EncodedString() } }
}
