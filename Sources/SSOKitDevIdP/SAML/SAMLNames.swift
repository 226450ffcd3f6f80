/// The SAML 2.0 URIs the IdP writes (SAML Core §3.2.2.2, §8.3; Bindings §3.4, §3.5).
enum SAMLNames {
    static let protocolNamespace = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertionNamespace = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
    static let postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
    static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"
    static let passwordContext = "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"
    static let uriAttributeFormat = "urn:oasis:names:tc:SAML:2.0:attrname-format:uri"

    /// The NameID formats the IdP can issue.
    enum NameIDFormat {
        static let unspecified = "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
        static let emailAddress = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
        static let persistent = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"
        static let transient = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient"
        static let all = [emailAddress, persistent, transient, unspecified]
    }
}

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
