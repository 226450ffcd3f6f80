import SSOKitCore
import SSOKitOIDC
import SSOKitRights
import SSOKitTokenCache

/// What the host gives the adapter: where state lives, how to reach IdPs, the time, and the optional rights.
public struct ExtensionEnvironment: Sendable {
    /// The token cache: each app's tokens, the IdP sessions, pending interactions, the SAML replay records. Share
    /// one store (PostgreSQL) between instances to let any of them resume an interaction.
    public var tokenCache: TokenCache
    /// How the adapter reaches IdPs; it must follow no redirect by itself.
    public var transport: any HTTPTransport
    /// The time for every expiry decision.
    public var clock: any SSOKitClock
    /// Where the rights that payloads name in `token_right` are persisted.
    public var rightStore: RightStore?
    /// Who is asked when a `token_right` must be authorized (a passphrase prompt).
    public var rightAuthenticator: (any RightAuthenticator)?
    /// Signers for `private_key_jwt` clients, by payload identifier.
    public var clientAssertionSigners: [String: any ClientAssertionSigner]
    /// The bounds.
    public var limits: ExtensionLimits

    /// Creates an environment.
    public init(
        tokenCache: TokenCache, transport: any HTTPTransport, clock: any SSOKitClock = SystemClock(),
        rightStore: RightStore? = nil, rightAuthenticator: (any RightAuthenticator)? = nil,
        clientAssertionSigners: [String: any ClientAssertionSigner] = [:], limits: ExtensionLimits = ExtensionLimits()
    ) {
        self.tokenCache = tokenCache
        self.transport = transport
        self.clock = clock
        self.rightStore = rightStore
        self.rightAuthenticator = rightAuthenticator
        self.clientAssertionSigners = clientAssertionSigners
        self.limits = limits
    }
}
