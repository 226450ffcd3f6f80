import Foundation

/// A SAML 2.0 `<samlp:AuthnRequest>` (SAML Core §3.4.1), ready to send through a binding.
public struct AuthnRequest: Sendable, Hashable {
    /// The NameIDPolicy element (Core §3.4.1.1).
    public struct NameIDPolicy: Sendable, Hashable {
        /// The requested NameID format URI, e.g. `urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress`.
        public var format: String?
        /// Whether the IdP may create a new identifier for the principal.
        public var allowCreate: Bool?
        /// Creates a policy.
        public init(format: String? = nil, allowCreate: Bool? = true) {
            self.format = format
            self.allowCreate = allowCreate
        }
    }

    /// The RequestedAuthnContext element (Core §3.3.2.2.1).
    public struct RequestedAuthnContext: Sendable, Hashable {
        /// How the IdP compares its context to the requested ones.
        public enum Comparison: String, Sendable, Hashable { case exact, minimum, maximum, better }
        /// The authentication context class references, most preferred first.
        public var classReferences: [String]
        /// The comparison (default exact).
        public var comparison: Comparison
        /// Creates a requested context.
        public init(classReferences: [String], comparison: Comparison = .exact) {
            self.classReferences = classReferences
            self.comparison = comparison
        }
    }

    /// The binding URIs of SAML Bindings 2.0.
    public enum Binding {
        /// HTTP-POST (Bindings §3.5).
        public static let post = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
        /// HTTP-Redirect (Bindings §3.4).
        public static let redirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
    }

    /// The request ID (an XML NCName); the Response's InResponseTo must equal it.
    public var id: String
    /// When the request was issued.
    public var issueInstant: Date
    /// The IdP's SSO URL the request is sent to.
    public var destination: String?
    /// Where the IdP must post the Response.
    public var assertionConsumerServiceURL: String
    /// The binding the Response must use (default HTTP-POST).
    public var protocolBinding: String
    /// The SP's entity ID.
    public var issuer: String
    /// The NameIDPolicy, if any.
    public var nameIDPolicy: NameIDPolicy?
    /// Whether the IdP must authenticate the user afresh.
    public var forceAuthn: Bool
    /// Whether the IdP must not interact with the user.
    public var isPassive: Bool
    /// The requested authentication context, if any.
    public var requestedAuthnContext: RequestedAuthnContext?

    /// Creates a request; ``AuthnRequestBuilder`` fills in a fresh ID and the current time.
    public init(
        id: String, issueInstant: Date, destination: String?, assertionConsumerServiceURL: String,
        protocolBinding: String = Binding.post, issuer: String, nameIDPolicy: NameIDPolicy? = NameIDPolicy(),
        forceAuthn: Bool = false, isPassive: Bool = false, requestedAuthnContext: RequestedAuthnContext? = nil
    ) {
        self.id = id
        self.issueInstant = issueInstant
        self.destination = destination
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.protocolBinding = protocolBinding
        self.issuer = issuer
        self.nameIDPolicy = nameIDPolicy
        self.forceAuthn = forceAuthn
        self.isPassive = isPassive
        self.requestedAuthnContext = requestedAuthnContext
    }

    /// The request as compact XML (no declaration, no whitespace between elements).
    public var xml: String {
        var attributes = [
            ("ID", id), ("Version", "2.0"), ("IssueInstant", SAMLDateTime.format(issueInstant)),
        ]
        if let destination { attributes.append(("Destination", destination)) }
        attributes.append(("AssertionConsumerServiceURL", assertionConsumerServiceURL))
        attributes.append(("ProtocolBinding", protocolBinding))
        if forceAuthn { attributes.append(("ForceAuthn", "true")) }
        if isPassive { attributes.append(("IsPassive", "true")) }
        var text =
            "<samlp:AuthnRequest xmlns:samlp=\"\(SAMLNamespace.protocolNS)\" xmlns:saml=\"\(SAMLNamespace.assertion)\""
        for (name, value) in attributes { text += " \(name)=\"\(XMLEscaping.escape(value))\"" }
        text += "><saml:Issuer>\(XMLEscaping.escape(issuer))</saml:Issuer>"
        if let policy = nameIDPolicy {
            text += "<samlp:NameIDPolicy"
            if let format = policy.format { text += " Format=\"\(XMLEscaping.escape(format))\"" }
            if let allowCreate = policy.allowCreate { text += " AllowCreate=\"\(allowCreate)\"" }
            text += "/>"
        }
        if let context = requestedAuthnContext, !context.classReferences.isEmpty {
            text += "<samlp:RequestedAuthnContext Comparison=\"\(context.comparison.rawValue)\">"
            for reference in context.classReferences {
                text += "<saml:AuthnContextClassRef>\(XMLEscaping.escape(reference))</saml:AuthnContextClassRef>"
            }
            text += "</samlp:RequestedAuthnContext>"
        }
        return text + "</samlp:AuthnRequest>"
    }
}
