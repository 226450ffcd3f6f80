/// Which calling apps a payload serves, from ExtensionData's `AppAllowList`, `AppPrefixAllowList` and `AppBlockList`
/// (named as the Microsoft Enterprise SSO plug-in names them) and the payload's `DeniedBundleIdentifiers`.
///
/// A blocked or denied app is never served. When neither allow list has an entry every other app is served;
/// otherwise only the apps an allow list names, exactly or by prefix. Bundle identifiers are compared ignoring ASCII
/// case, as Apple compares them: `com.example.Blocked` is as blocked as `com.example.blocked`.
public struct ApplicationAccessPolicy: Sendable, Hashable {
    /// Bundle identifiers served (`AppAllowList`).
    public var allowed: Set<String>
    /// Bundle-identifier prefixes served (`AppPrefixAllowList`), such as `com.example.`.
    public var allowedPrefixes: [String]
    /// Bundle identifiers never served (`AppBlockList` and `DeniedBundleIdentifiers`).
    public var blocked: Set<String>

    /// Creates a policy.
    public init(allowed: Set<String> = [], allowedPrefixes: [String] = [], blocked: Set<String> = []) {
        self.allowed = allowed
        self.allowedPrefixes = allowedPrefixes
        self.blocked = blocked
    }

    /// Whether the app with `bundleIdentifier` may use this payload.
    public func permits(_ bundleIdentifier: String) -> Bool {
        let identifier = bundleIdentifier.lowercased()
        if blocked.contains(where: { $0.lowercased() == identifier }) { return false }
        if allowed.isEmpty && allowedPrefixes.isEmpty { return true }
        return allowed.contains { $0.lowercased() == identifier }
            || allowedPrefixes.contains { identifier.hasPrefix($0.lowercased()) }
    }

    /// Whether the app may have its web requests to the IdP completed with the user's IdP session (browser SSO):
    /// a browser (``browsers``) that is not blocked, or an app an allow list names. Without allow lists no other app
    /// may, whatever it may do with native operations: the answer to an intercepted authorization request carries
    /// an authorization code for the web app that asked, which only a browser passes on to that web app.
    public func permitsBrowserSSO(_ bundleIdentifier: String) -> Bool {
        guard permits(bundleIdentifier) else { return false }
        if Self.browsers.contains(bundleIdentifier.lowercased()) { return true }
        return !(allowed.isEmpty && allowedPrefixes.isEmpty)
    }

    /// The browsers whose intercepted requests are completed without an allow list (lower case).
    public static let browsers: Set<String> = [
        "com.apple.safari", "com.apple.mobilesafari", "com.apple.safariviewservice", "org.chromium.chromium",
        "com.google.chrome", "org.mozilla.firefox", "com.microsoft.edgemac",
    ]
}
