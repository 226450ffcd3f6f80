import SSOKitOIDC
import SSOKitRights
import SSOKitSAML
import SSOKitStore
import SSOKitTokenCache

extension AuthorizationFailure {
    /// The failure for an error from a module the adapter calls: its stable code becomes the reason, under
    /// `failed`. An OIDC error's own text is not passed on: it may quote the provider's `error_description`, which a
    /// provider can fill with what it received (a code, a verifier, a client secret); the app gets the code only.
    init(_ error: any Error) {
        switch error {
        case let failure as AuthorizationFailure:
            self = failure
        case let error as OIDCError:
            self.init(
                .failed, Reason(error.code.description),
                "the exchange with the OpenID Provider failed (\(error.code.description))")
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
