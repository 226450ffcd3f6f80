import SSOKitCore

/// What a claim check sees: the claims, the verifier's configuration and this token's expectations.
public struct IDTokenCheckContext: Sendable {
    /// The verifier's configuration.
    public let configuration: IDTokenVerifier.Configuration
    /// This authentication's expectations.
    public let expectations: IDTokenExpectations
    /// The verification time, exactly as the clock gave it (not rounded to whole seconds).
    public let now: NumericDate
    /// The algorithm the token was verified with.
    public let algorithm: JWSAlgorithm
}

/// One named rule of ID-token validation (OIDC Core 1.0 §3.1.3.7); a failure carries the rule's ``name`` in
/// ``OIDCError/rule``.
public struct IDTokenCheck: Sendable {
    /// The rule's name, e.g. `issuer`.
    public let name: String
    let evaluate: @Sendable (IDTokenClaims, IDTokenCheckContext) throws(OIDCError) -> Void

    /// Creates a check; `evaluate` throws an ``OIDCError`` when the rule is broken.
    public init(
        name: String, evaluate: @escaping @Sendable (IDTokenClaims, IDTokenCheckContext) throws(OIDCError) -> Void
    ) {
        self.name = name
        self.evaluate = evaluate
    }

    /// Runs the check; a failure is thrown with this check's name as its ``OIDCError/rule``.
    public func callAsFunction(_ claims: IDTokenClaims, _ context: IDTokenCheckContext) throws(OIDCError) {
        do throws(OIDCError) {
            try evaluate(claims, context)
        } catch {
            var named = error
            named.rule = name
            throw named
        }
    }
}
