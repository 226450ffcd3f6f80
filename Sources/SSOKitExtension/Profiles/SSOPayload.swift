/// One `com.apple.extensiblesso` payload, validated: where it applies, which extension it configures, and SSOKit's
/// typed reading of its ExtensionData.
///
/// Immutable, and a reference: matching hands out the payload on every request without copying its members.
public final class SSOPayload: Sendable {
    /// The payload type every SSO payload has.
    public static let payloadType = "com.apple.extensiblesso"

    /// `PayloadIdentifier`, unique across the loaded profiles.
    public let identifier: String
    /// `PayloadUUID`, if present.
    public let uuid: String?
    /// `ExtensionIdentifier`: the bundle identifier of the extension.
    public let extensionIdentifier: String
    /// `TeamIdentifier`: the extension's team, if present.
    public let teamIdentifier: String?
    /// `Type`.
    public let type: SSOPayloadType
    /// `URLs` of a Redirect payload (empty for Credential).
    public let urls: [RedirectURLPrefix]
    /// `Hosts` of a Credential payload (empty for Redirect).
    public let hosts: [CredentialHost]
    /// `Realm`, if present.
    public let realm: String?
    /// `DeniedBundleIdentifiers`: apps the extension never serves.
    public let deniedBundleIdentifiers: [String]
    /// `ScreenLockedBehavior` (default `Cancel`).
    public let screenLockedBehavior: ScreenLockedBehavior
    /// `ExtensionData` as written, unknown keys included. It may hold a `client_secret`: never print it.
    public let extensionData: [String: ProfileValue]
    /// SSOKit's typed reading of ExtensionData.
    public let configuration: ExtensionConfiguration
    /// Every key of the payload as written, unknown ones included (kept and ignored, as the OS does).
    public let dictionary: [String: ProfileValue]

    init(
        identifier: String, uuid: String?, extensionIdentifier: String, teamIdentifier: String?, type: SSOPayloadType,
        urls: [RedirectURLPrefix], hosts: [CredentialHost], realm: String?, deniedBundleIdentifiers: [String],
        screenLockedBehavior: ScreenLockedBehavior, extensionData: [String: ProfileValue],
        configuration: ExtensionConfiguration, dictionary: [String: ProfileValue]
    ) {
        self.identifier = identifier
        self.uuid = uuid
        self.extensionIdentifier = extensionIdentifier
        self.teamIdentifier = teamIdentifier
        self.type = type
        self.urls = urls
        self.hosts = hosts
        self.realm = realm
        self.deniedBundleIdentifiers = deniedBundleIdentifiers
        self.screenLockedBehavior = screenLockedBehavior
        self.extensionData = extensionData
        self.configuration = configuration
        self.dictionary = dictionary
    }

    /// Whether the app with `bundleIdentifier` may use this payload: not denied, and permitted by ExtensionData's
    /// app lists.
    public func permits(application bundleIdentifier: String) -> Bool {
        configuration.applications.permits(bundleIdentifier)
    }

    /// Whether the app may have its intercepted web requests completed (``ApplicationAccessPolicy/permitsBrowserSSO(_:)``).
    public func permitsBrowserSSO(application bundleIdentifier: String) -> Bool {
        configuration.applications.permitsBrowserSSO(bundleIdentifier)
    }

    /// `TEAMID.ExtensionIdentifier`, the app ID that a host's apple-app-site-association must list under `authsrv`.
    public var applicationIdentifier: String? {
        teamIdentifier.map { "\($0).\(extensionIdentifier)" }
    }
}
