import Foundation

/// A pending device authorization (RFC 8628 §3.2): what to show the user, and how to poll.
public struct DeviceAuthorization: Sendable {
    /// `device_code`; secret, sent only to the token endpoint.
    public let deviceCode: String
    /// `user_code`, to show the user.
    public let userCode: String
    /// `verification_uri`, to show the user.
    public let verificationURI: String
    /// `verification_uri_complete`, when the provider offers one.
    public let verificationURIComplete: String?
    /// When the device code expires.
    public let expiresAt: Date
    /// The polling interval in seconds (default 5).
    public let interval: Int64
}
