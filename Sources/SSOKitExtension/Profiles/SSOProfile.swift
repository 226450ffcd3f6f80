/// A configuration profile, read and validated: its Extensible SSO payloads and what its signature proved.
public struct SSOProfile: Sendable {
    /// The profile's own `PayloadIdentifier`, if any.
    public var identifier: String?
    /// The profile's `PayloadDisplayName`, if any.
    public var displayName: String?
    /// Whether it was signed, and by whom when verified.
    public var signature: ProfileSignature
    /// Its `com.apple.extensiblesso` payloads, in order; never empty.
    public var payloads: [SSOPayload]
    /// The `PayloadType` of every other payload, in order (kept and ignored).
    public var otherPayloadTypes: [String]
    /// The folder that relative paths in the profile were resolved against.
    public var directory: String?
}
