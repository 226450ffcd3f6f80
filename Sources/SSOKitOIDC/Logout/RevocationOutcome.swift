/// What revoking a session's tokens at the provider achieved (RFC 7009). A logout ends the local session
/// whatever this says; it only tells whether the provider ended its copy too.
public struct RevocationOutcome: Sendable {
    /// Every token handed in was revoked (an unknown or already invalid token counts as revoked, RFC 7009 §2.2).
    public var revoked: Bool
    /// Why not, when `revoked` is false: the provider's error, `unsupported_feature` (no revocation endpoint),
    /// `timed_out`, a transport or discovery failure.
    public var error: OIDCError?

    /// Creates an outcome.
    public init(revoked: Bool, error: OIDCError?) {
        self.revoked = revoked
        self.error = error
    }
}
