import SSOKitCore

/// Unguessable values for `state` and `nonce`: 256 bits from the system CSPRNG, base64url.
public enum RandomToken {
    /// A new random value of `byteCount` bytes, base64url-encoded.
    public static func make(byteCount: Int = 32) -> String {
        Base64URL.encode(SecureRandom.bytes(byteCount))
    }
}
