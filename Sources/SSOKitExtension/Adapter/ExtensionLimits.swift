import Foundation

/// The bounds the adapter keeps to.
public struct ExtensionLimits: Sendable {
    /// Largest answer, in bytes: body and headers, not counting the value of a SAMLResponse (default 4 KiB). A
    /// larger one becomes `invalid_response` / `response_too_large`.
    public var maximumResponseBytes: Int
    /// Most redirects (and auto-post hops) the IdP browser follows for one step (default 10).
    public var maximumRedirects: Int
    /// Largest IdP page read, in bytes (default 1 MiB).
    public var maximumPageBytes: Int
    /// How long a pending interaction can be resumed, in seconds (default 600).
    public var interactionLifetime: TimeInterval
    /// The longest an IdP session is used after the last login, in seconds, whatever its cookies say
    /// (default 8 hours).
    public var idpSessionLifetime: TimeInterval
    /// How long a logout waits for the provider's revocation endpoint (default 10 s).
    public var revocationTimeout: Duration
    /// Largest SAMLResponse value an auto-post answer may carry, in bytes (default 256 KiB): the value is exempt
    /// from ``maximumResponseBytes``, not unbounded.
    public var maximumSAMLResponseBytes: Int
    /// The longest one walk through the IdP may take, redirects and form posts together (default 30 s); each
    /// request also has the transport's own deadline.
    public var maximumWalkDuration: Duration
    /// Largest interaction the host is asked to show, in bytes: the browser URL, or the credential fields' names
    /// (default 8 KiB). The fields come from the IdP's login page: a larger one becomes `invalid_response` /
    /// `response_too_large`.
    public var maximumInteractionBytes: Int

    /// Creates limits; the defaults are the ones described for each member.
    public init(
        maximumResponseBytes: Int = 4096, maximumRedirects: Int = 10, maximumPageBytes: Int = 1 << 20,
        interactionLifetime: TimeInterval = 600, idpSessionLifetime: TimeInterval = 8 * 3600,
        revocationTimeout: Duration = .seconds(10), maximumSAMLResponseBytes: Int = 256 * 1024,
        maximumWalkDuration: Duration = .seconds(30), maximumInteractionBytes: Int = 8192
    ) {
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumRedirects = maximumRedirects
        self.maximumPageBytes = maximumPageBytes
        self.interactionLifetime = interactionLifetime
        self.idpSessionLifetime = idpSessionLifetime
        self.revocationTimeout = revocationTimeout
        self.maximumSAMLResponseBytes = maximumSAMLResponseBytes
        self.maximumWalkDuration = maximumWalkDuration
        self.maximumInteractionBytes = maximumInteractionBytes
    }
}
