import Crypto

/// What a persisted right protects: its P-256 private key and its optional secret.
struct RightMaterial: Sendable {
    var privateKey: P256.Signing.PrivateKey
    var secret: [UInt8]?

    /// Largest secret accepted.
    static let maximumSecretBytes = 4096

    /// `version ‖ raw key (32) ‖ secret flag ‖ secret`.
    var encoded: [UInt8] {
        var bytes: [UInt8] = [1]
        bytes += privateKey.rawRepresentation
        if let secret {
            bytes.append(1)
            bytes += secret
        } else {
            bytes.append(0)
        }
        return bytes
    }

    init(privateKey: P256.Signing.PrivateKey, secret: [UInt8]?) {
        self.privateKey = privateKey
        self.secret = secret
    }

    init(encoded bytes: [UInt8]) throws(RightError) {
        guard bytes.count >= 34, bytes[0] == 1, bytes[33] <= 1,
            bytes.count - 34 <= Self.maximumSecretBytes,
            let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes[1..<33])
        else { throw RightError(.recordUnreadable, "a stored right's material is malformed") }
        privateKey = key
        secret = bytes[33] == 1 ? Array(bytes[34...]) : nil
    }
}
