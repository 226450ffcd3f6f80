import SSOKitRights

/// Releases tokens of a payload with a `token_right` only while that persisted right is authorized. The right is
/// loaded once and kept, so one authorization lasts until it is deauthorized (or the adapter goes away).
actor TokenRightGate {
    private let store: RightStore?
    private let authenticator: (any RightAuthenticator)?
    private var rights: [String: PersistedRight] = [:]

    init(store: RightStore?, authenticator: (any RightAuthenticator)?) {
        self.store = store
        self.authenticator = authenticator
    }

    /// Nil when tokens may be released for `request`; otherwise why not. Authorizes the right (asking the
    /// authenticator) only when the request allows UI.
    func check(_ identifier: String, request: AuthorizationRequest) async -> AuthorizationFailure? {
        guard let store, let authenticator else {
            return AuthorizationFailure(
                .notInteractive, .rightNotAuthorized,
                "the right \(identifier) guards these tokens and no right store is set")
        }
        let right: PersistedRight
        if let known = rights[identifier] {
            right = known
        } else {
            do {
                right = try await store.right(forIdentifier: identifier, authenticator: authenticator)
            } catch {
                return AuthorizationFailure(
                    .failed, .rightNotAuthorized, "the right \(identifier) cannot be loaded: \(error.code)")
            }
            rights[identifier] = right
        }
        if right.state == .authorized { return nil }
        guard request.isUserInterfaceEnabled else {
            return AuthorizationFailure(
                .notInteractive, .rightNotAuthorized, "the right \(identifier) is not authorized")
        }
        let app = request.localizedCallerDisplayName ?? request.callerBundleIdentifier
        do {
            try await right.authorize(localizedReason: "Release sign-in tokens to \(app)")
            return nil
        } catch {
            return AuthorizationFailure(
                .failed, .rightNotAuthorized, "the right \(identifier) was not authorized: \(error.code)")
        }
    }
}
