/// A right persisted in a ``RightStore``: its requirement, a P-256 key pair and an optional secret. Public-key
/// operations are always allowed; private-key operations and the secret only while ``right`` is authorized.
public final class PersistedRight: Sendable {
    /// The identifier it was persisted under.
    public let identifier: String
    /// The right whose authorization gates the key and the secret.
    public let right: Right
    /// The public key: export, verify, encrypt to it.
    public let publicKey: RightPublicKey
    /// Whether a secret was stored with the right.
    public let hasSecret: Bool

    init(identifier: String, right: Right, publicKey: RightPublicKey, hasSecret: Bool) {
        self.identifier = identifier
        self.right = right
        self.publicKey = publicKey
        self.hasSecret = hasSecret
    }

    /// The private key: sign, decrypt, agree on a key; each fails with `not_authorized` unless authorized.
    public var privateKey: RightPrivateKey { RightPrivateKey(right: right, publicKey: publicKey) }

    /// The right's state.
    public var state: RightState { right.state }

    /// Authorizes the right; see ``Right/authorize(localizedReason:)``.
    public func authorize(localizedReason: String) async throws(RightError) {
        try await right.authorize(localizedReason: localizedReason)
    }

    /// Ends the authorization.
    public func deauthorize() { right.deauthorize() }

    /// The stored secret: `not_authorized` unless authorized, `no_secret` when none was stored.
    public func secret() throws(RightError) -> [UInt8] {
        try right.withMaterial { material throws(RightError) in
            guard let secret = material.secret else { throw RightError(.noSecret, "the right holds no secret") }
            return secret
        }
    }
}
