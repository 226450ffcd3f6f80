import SSOKitOIDC
import SSOKitRights
import SSOKitSAML
import SSOKitTokenCache

extension AuthorizationFailure {
    /// The failure for an error from a module the adapter calls: its stable code becomes the reason (the modules'
    /// messages hold no secrets), under `failed`.
    init(_ error: any Error) {
        switch error {
        case let failure as AuthorizationFailure:
            self = failure
        case let error as OIDCError:
            self.init(.failed, Reason(error.code.description), error.reason)
        case let error as SAMLError:
            self.init(.failed, Reason(error.code.description), error.reason)
        case let error as TokenCacheError:
            let reason = error.code == .storeUnavailable ? Reason.storeUnavailable : Reason(error.code.description)
            self.init(.failed, reason, error.reason)
        case let error as RightError:
            self.init(.failed, .rightNotAuthorized, error.reason)
        default:
            self.init(.failed, .idpError, "unexpected \(type(of: error))")
        }
    }

    /// `not_interactive` / `login_required`: the app must call `login` (with UI).
    static func loginRequired(_ message: String = "the user must log in; call login with UI allowed") -> Self {
        AuthorizationFailure(.notInteractive, .loginRequired, message)
    }
}
