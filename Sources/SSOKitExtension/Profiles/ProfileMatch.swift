/// The payload that handles a URL or host, and the rule that selected it.
public struct ProfileMatch: Sendable {
    /// The rule of the payload that matched.
    public enum Rule: Sendable, Hashable {
        /// A Redirect payload's URL prefix.
        case urlPrefix(RedirectURLPrefix)
        /// A Credential payload's host or domain suffix.
        case host(CredentialHost)
    }

    /// The payload.
    public let payload: SSOPayload
    /// What matched.
    public let rule: Rule

    /// The payload's type.
    public var type: SSOPayloadType { payload.type }
}
