/// One `com.apple.extensiblesso` payload, validated: where it applies, which extension it configures, and SSOKit's
/// typed reading of its ExtensionData.
public struct SSOPayload: Sendable {
    /// The payload type every SSO payload has.
    public static let payloadType = "com.apple.extensiblesso"

    /// `PayloadIdentifier`, unique across the loaded profiles.
    public var identifier: String
    /// `PayloadUUID`, if present.
    public var uuid: String?
    /// `ExtensionIdentifier`: the bundle identifier of the extension.
    public var extensionIdentifier: String
    /// `TeamIdentifier`: the extension's team, if present.
    public var teamIdentifier: String?
    /// `Type`.
    public var type: SSOPayloadType
    /// `URLs` of a Redirect payload (empty for Credential).
    public var urls: [RedirectURLPrefix]
    /// `Hosts` of a Credential payload (empty for Redirect).
    public var hosts: [CredentialHost]
    /// `Realm`, if present.
    public var realm: String?
    /// `DeniedBundleIdentifiers`: apps the extension never serves.
    public var deniedBundleIdentifiers: [String]
    /// `ScreenLockedBehavior` (default `Cancel`).
    public var screenLockedBehavior: ScreenLockedBehavior
    /// `ExtensionData` as written, unknown keys included. It may hold a `client_secret`: never print it.
    public var extensionData: [String: ProfileValue]
    /// SSOKit's typed reading of ExtensionData.
    public var configuration: ExtensionConfiguration
    /// Every key of the payload as written, unknown ones included (kept and ignored, as the OS does).
    public var dictionary: [String: ProfileValue]

    /// Whether the app with `bundleIdentifier` may use this payload: not denied, and permitted by ExtensionData's
    /// app lists.
    public func permits(application bundleIdentifier: String) -> Bool {
        configuration.applications.permits(bundleIdentifier)
    }

    /// `TEAMID.ExtensionIdentifier`, the app ID that a host's apple-app-site-association must list under `authsrv`.
    public var applicationIdentifier: String? {
        teamIdentifier.map { "\($0).\(extensionIdentifier)" }
    }
}
