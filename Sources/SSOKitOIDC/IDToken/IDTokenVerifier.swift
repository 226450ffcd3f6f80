import Foundation
import SSOKitCore

/// Verifies ID tokens (OIDC Core 1.0 §3.1.3.7): signature with a configured key, then every claim rule.
///
/// Safe by default: asymmetric algorithms only (never `none`, never HMAC), keys only from the configured source
/// (never from `jwk`, `jku`, `x5u` or `x5c` headers), unknown `crit` refused, tokens over 64 KiB refused before
/// they are decoded, and an issuer that is not https (or http on a loopback host) refuses every token with
/// `insecure_url`, whatever supplies the keys (``IssuerIdentifier``).
///
/// ```swift
/// let verifier = IDTokenVerifier(
///     configuration: .init(issuer: "https://idp.example.com", clientID: "my-client"),
///     keys: try JWKSCache(url: jwksURL, transport: transport))
/// let claims = try await verifier.verify(idToken, expecting: .init(nonce: sentNonce))
/// ```
public struct IDTokenVerifier: Sendable {
    /// The relying party's fixed rules.
    public struct Configuration: Sendable {
        /// The issuer identifier; `iss` must equal it exactly.
        public var issuer: String
        /// This client's ID; `aud` must contain it.
        public var clientID: String
        /// The algorithms accepted; defaults to every supported asymmetric algorithm.
        public var allowedAlgorithms: [JWSAlgorithm]
        /// Tolerated clock difference for every time check (`exp`, `nbf`, `iat`, `auth_time`), in whole seconds
        /// (default 60): the unit of a JWT NumericDate.
        public var clockSkew: Int64
        /// The largest token accepted, in bytes (default 64 KiB).
        public var maximumTokenBytes: Int
        /// The claim rules, in order; ``IDTokenCheck/standard`` by default.
        public var checks: [IDTokenCheck]

        /// Creates a configuration with safe defaults.
        public init(
            issuer: String, clientID: String, allowedAlgorithms: [JWSAlgorithm] = JWSAlgorithm.all,
            clockSkew: Int64 = 60, maximumTokenBytes: Int = 64 * 1024, checks: [IDTokenCheck] = IDTokenCheck.standard
        ) {
            self.issuer = issuer
            self.clientID = clientID
            self.allowedAlgorithms = allowedAlgorithms
            self.clockSkew = clockSkew
            self.maximumTokenBytes = maximumTokenBytes
            self.checks = checks
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// Where keys come from.
    public let keys: any VerificationKeySource
    /// The clock every time check reads.
    public let clock: any SSOKitClock
    /// Why the configured issuer is unusable, judged once here rather than per token.
    private let issuerProblem: OIDCError?
    /// The last header parsed, shared by this verifier's copies: the next token from the same provider usually has
    /// the same header segment.
    private let headerCache = JWSHeaderCache()

    /// Creates a verifier.
    /// - Parameters:
    ///   - configuration: The relying party's fixed rules.
    ///   - keys: Where the verification keys come from.
    ///   - clock: The clock every time check reads (the system clock by default).
    public init(
        configuration: Configuration, keys: any VerificationKeySource, clock: any SSOKitClock = SystemClock()
    ) {
        self.configuration = configuration
        self.keys = keys
        self.clock = clock
        do {
            try IssuerIdentifier.validate(configuration.issuer)
            issuerProblem = nil
        } catch {
            issuerProblem = error
        }
    }

    /// Verifies `token` and returns its claims, or throws the ``OIDCError`` of the first rule it breaks.
    public func verify(_ token: String, expecting expectations: IDTokenExpectations = .init()) async throws(OIDCError)
        -> IDTokenClaims
    {
        if let issuerProblem { throw issuerProblem }
        guard token.utf8.count <= configuration.maximumTokenBytes else {
            throw OIDCError(.tokenTooLarge, "the token exceeds \(configuration.maximumTokenBytes) bytes")
        }
        var token = token
        let parsed: ParsedJWS
        do {
            parsed = try token.withUTF8 { utf8 in
                try ParsedJWS(UnsafeRawBufferPointer(utf8), headerCache: headerCache)
            }
        } catch let error as OIDCError {
            throw error
        } catch {
            throw OIDCError(.malformedToken, "the token could not be read")
        }
        guard let algorithm = JWSAlgorithm(name: parsed.header.algorithmName),
            configuration.allowedAlgorithms.contains(algorithm)
        else {
            throw OIDCError(.unsupportedAlgorithm, "the token's algorithm is not allowed")
        }
        guard !parsed.header.hasCriticalParameters else {
            throw OIDCError(.unsupportedCriticalHeader, "the token's header lists critical extensions")
        }
        // The usual case, a held key that matches, is answered without entering an async function.
        let key: VerificationKey
        let cached = keys.cachedKeys()
        if let cached, let match = cached.key(for: parsed.header.keyID, algorithm: algorithm) {
            key = match
        } else {
            key = try await selectKey(cached: cached, keyID: parsed.header.keyID, algorithm: algorithm)
        }
        let valid = token.withUTF8 { utf8 in
            parsed.signature.withUnsafeBytes { signature in
                key.isValidSignature(
                    signature, for: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[parsed.signingInput]),
                    algorithm: algorithm)
            }
        }
        guard valid else { throw OIDCError(.invalidSignature, "the token's signature does not verify") }
        let claims = try IDTokenClaims(members: try parsed.payloadMembers())
        let context = IDTokenCheckContext(
            configuration: configuration, expectations: expectations,
            now: NumericDate(clock.now), algorithm: algorithm)
        for check in configuration.checks { try check(claims, context) }
        return claims
    }

    /// The key for `keyID` and `algorithm`: from `cached` (what ``VerificationKeySource/cachedKeys()`` returned), else
    /// freshly loaded keys, else keys refetched once for an unknown `kid`.
    private func selectKey(cached: JSONWebKeySet?, keyID: String?, algorithm: JWSAlgorithm) async throws(OIDCError)
        -> VerificationKey
    {
        let current: JSONWebKeySet
        if let cached { current = cached } else { current = try await keys.loadKeys() }
        if let key = current.key(for: keyID, algorithm: algorithm) { return key }
        if keyID != nil, let refreshed = await keys.refreshForUnknownKey(),
            let key = refreshed.key(for: keyID, algorithm: algorithm)
        {
            return key
        }
        throw OIDCError(.keyNotFound, "no configured key matches the token's kid and algorithm")
    }
}
