extension RedirectExtension {
    /// The system's `configurationRemoved` for the payload `identifier`: every app's entry with the payload's IdP
    /// and client, and the IdP session, are removed, whichever app stored them.
    ///
    /// This is the operating system's operation, not an app's: a host calls it when a profile reload drops the
    /// payload (`ssokit serve` does on SIGHUP), and never on behalf of a calling app. The payload's app policy
    /// does not apply. An unknown identifier is `doNotHandle`.
    public func removeConfiguration(ofPayload identifier: String) async -> AuthorizationResult {
        guard let payload = catalog.payload(identifier: identifier) else { return .doNotHandle }
        let request = AuthorizationRequest(
            url: nil, callerBundleIdentifier: Self.systemCaller, isUserInterfaceEnabled: false,
            operation: .configurationRemoved)
        return ResponseCompaction.check(await route(request, to: payload), limits: services.limits)
    }

    /// The caller the system's own requests carry; a removal does not depend on it (the registry lists the apps).
    static let systemCaller = "com.ssokit.system"
}
