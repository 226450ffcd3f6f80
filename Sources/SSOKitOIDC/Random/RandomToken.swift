import SSOKitCore

/// Unguessable values for `state` and `nonce`: 256 bits from the system CSPRNG, base64url.
public enum RandomToken {
    /// A new random value of `byteCount` bytes, base64url-encoded.
    public static func make(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
