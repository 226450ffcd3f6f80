/// The status of a Response or LogoutResponse (SAML Core §3.2.2.2).
enum SAMLStatus: Sendable {
    case success
    /// The user could not be authenticated (cancelled, too many wrong passwords).
    case authnFailed
    /// IsPassive was set and the user is not signed in.
    case noPassive
    /// The requested NameID format cannot be issued for this user.
    case invalidNameIDPolicy

    /// The top-level code and the second-level one, if any.
    var codes: (top: String, second: String?) {
        let prefix = "urn:oasis:names:tc:SAML:2.0:status:"
        switch self {
        case .success: return (prefix + "Success", nil)
        case .authnFailed: return (prefix + "Responder", prefix + "AuthnFailed")
        case .noPassive: return (prefix + "Responder", prefix + "NoPassive")
        case .invalidNameIDPolicy: return (prefix + "Responder", prefix + "InvalidNameIDPolicy")
        }
    }

    /// `<samlp:Status>` for this status.
    var xml: String {
        let (top, second) = codes
        let inner = second.map { "<samlp:StatusCode Value=\"\($0)\"/>" } ?? ""
        return inner.isEmpty
            ? "<samlp:Status><samlp:StatusCode Value=\"\(top)\"/></samlp:Status>"
            : "<samlp:Status><samlp:StatusCode Value=\"\(top)\">\(inner)</samlp:StatusCode></samlp:Status>"
    }
}
