/// Where an ``IDTokenVerifier`` gets its keys: a fixed set, or a ``JWKSCache`` that follows rotation.
public protocol VerificationKeySource: Sendable {
    /// The keys held now, without waiting; `nil` when none have been loaded yet or they are due for a refresh
    /// (the verifier then calls ``loadKeys()``).
    func cachedKeys() -> JSONWebKeySet?
    /// The current keys, loading them when none are held.
    func loadKeys() async throws(OIDCError) -> JSONWebKeySet
    /// Asks for a fresh key set because a token named a key that is not held; returns the new set, or `nil`
    /// when the source cannot or may not refetch now (rate limit, or a fixed set).
    func refreshForUnknownKey() async -> JSONWebKeySet?
}

/// A key set that never changes: keys the caller passes, or a JWKS file.
public struct StaticKeySource: VerificationKeySource {
    /// The keys.
    public let keySet: JSONWebKeySet

    /// Wraps a key set.
    public init(_ keySet: JSONWebKeySet) {
        self.keySet = keySet
    }

    /// The fixed set.
    public func cachedKeys() -> JSONWebKeySet? { keySet }
    /// The fixed set.
    public func loadKeys() async throws(OIDCError) -> JSONWebKeySet { keySet }
    /// Always `nil`: a fixed set cannot rotate.
    public func refreshForUnknownKey() async -> JSONWebKeySet? { nil }
}
