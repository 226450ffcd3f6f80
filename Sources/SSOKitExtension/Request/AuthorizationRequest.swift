import Foundation
import HTTPTypes

/// One request for the extension, modelled on `ASAuthorizationProviderExtensionAuthorizationRequest`: what the
/// system hands an SSO extension for a request to a managed URL, a credential challenge, or an operation a native
/// app sends.
///
/// Every member is input from the calling app or the network: the adapter checks what it uses.
public struct AuthorizationRequest: Sendable {
    /// The request's URL (a managed URL, a challenged host's URL, or for an operation the IdP's URL); nil when the
    /// app gives none.
    public var url: URL?
    /// The HTTP method, upper case (`GET` by default).
    public var httpMethod: String
    /// The request's headers; for a credential challenge, the server's challenge (`WWW-Authenticate`).
    public var httpHeaders: HTTPFields
    /// The request body (a POSTed form for the SAML HTTP-POST binding).
    public var httpBody: [UInt8]
    /// The realm of a credential challenge, if any.
    public var realm: String?
    /// The matched payload's ExtensionData; the adapter fills it in before a handler runs.
    public var extensionData: [String: ProfileValue]
    /// The calling app's bundle identifier: the key that keeps each app's tokens apart.
    public var callerBundleIdentifier: String
    /// The calling app's team identifier, if known.
    public var callerTeamIdentifier: String?
    /// The calling app's name, for prompts.
    public var localizedCallerDisplayName: String?
    /// Whether the calling app is managed by MDM.
    public var isCallerManaged: Bool
    /// Whether the extension may ask for interaction (credentials, a browser); when false, a request that needs
    /// the user fails with `not_interactive`.
    public var isUserInterfaceEnabled: Bool
    /// The operation; ``AuthorizationOperation/none`` for an intercepted browser request.
    public var operation: AuthorizationOperation
    /// Options the app passes with an operation (`end_session` = `true` with `logout` also ends the IdP session).
    public var authorizationOptions: [String: String]
    /// Whether the device's screen is locked (the payload's ScreenLockedBehavior then applies).
    public var isScreenLocked: Bool

    /// Creates a request.
    public init(
        url: URL?, httpMethod: String = "GET", httpHeaders: HTTPFields = HTTPFields(), httpBody: [UInt8] = [],
        realm: String? = nil, callerBundleIdentifier: String, callerTeamIdentifier: String? = nil,
        localizedCallerDisplayName: String? = nil, isCallerManaged: Bool = false, isUserInterfaceEnabled: Bool = true,
        operation: AuthorizationOperation = .none, authorizationOptions: [String: String] = [:],
        isScreenLocked: Bool = false
    ) {
        self.url = url
        self.httpMethod = httpMethod
        self.httpHeaders = httpHeaders
        self.httpBody = httpBody
        self.realm = realm
        self.extensionData = [:]
        self.callerBundleIdentifier = callerBundleIdentifier
        self.callerTeamIdentifier = callerTeamIdentifier
        self.localizedCallerDisplayName = localizedCallerDisplayName
        self.isCallerManaged = isCallerManaged
        self.isUserInterfaceEnabled = isUserInterfaceEnabled
        self.operation = operation
        self.authorizationOptions = authorizationOptions
        self.isScreenLocked = isScreenLocked
    }

    /// Whether the option `name` is set to `true`.
    func option(_ name: String) -> Bool {
        authorizationOptions[name]?.lowercased() == "true"
    }
}
