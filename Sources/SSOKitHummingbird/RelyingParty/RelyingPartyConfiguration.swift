import Foundation
import HTTPTypes
import SSOKitCore

/// How a Hummingbird service signs its users in (``RelyingPartyRoutes``): where browsers reach it, its routes'
/// paths, the identity providers (OpenID Connect, SAML, or both), and how long sign-ins and sessions last.
public struct RelyingPartyConfiguration: Sendable {
    /// The service's origin as browsers reach it, with no trailing slash: `https://app.example.com`, or
    /// `http://127.0.0.1:8080` for development (plain HTTP only on a loopback address). The OIDC redirect URI and
    /// the SAML ACS URL are this plus their paths.
    public var baseURL: String
    /// The routes' paths.
    public var paths: RelyingPartyPaths
    /// The OpenID Provider, when users sign in with OpenID Connect.
    public var openIDConnect: OpenIDConnectSignIn?
    /// The SAML IdP, when users sign in with SAML.
    public var saml: SAMLSignIn?
    /// How long a browser has from the sign-in route to the callback or ACS (default 10 minutes).
    public var loginLifetime: Duration
    /// How long a session lasts (default 8 hours; a SAML SessionNotOnOrAfter may shorten it).
    public var sessionLifetime: Duration
    /// The cookies' names start with this (`<prefix>_login`, `<prefix>_session`, and `__Host-` before both on
    /// HTTPS): give two relying parties on one host different prefixes, since cookies ignore ports.
    public var cookieNamePrefix: String
    /// The persist driver's keys start with this.
    public var storageKeyPrefix: String

    /// Creates a configuration with the default paths, lifetimes and prefixes.
    public init(
        baseURL: String, paths: RelyingPartyPaths = RelyingPartyPaths(), openIDConnect: OpenIDConnectSignIn? = nil,
        saml: SAMLSignIn? = nil, loginLifetime: Duration = .seconds(600), sessionLifetime: Duration = .seconds(28_800),
        cookieNamePrefix: String = "ssokit", storageKeyPrefix: String = "ssokit."
    ) {
        self.baseURL = baseURL
        self.paths = paths
        self.openIDConnect = openIDConnect
        self.saml = saml
        self.loginLifetime = loginLifetime
        self.sessionLifetime = sessionLifetime
        self.cookieNamePrefix = cookieNamePrefix
        self.storageKeyPrefix = storageKeyPrefix
    }

    /// Whether the service is reached over HTTPS (else plain HTTP on loopback); throws for anything else.
    func checkedBaseURL() throws(RelyingPartyError) -> Bool {
        guard let components = URLComponents(string: baseURL), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.query == nil, components.fragment == nil, !baseURL.hasSuffix("/")
        else {
            throw .invalidConfiguration("the base URL must be an absolute origin without a trailing slash")
        }
        guard cookieNamePrefix.utf8.allSatisfy({ $0.isCookieNameByte }), !cookieNamePrefix.isEmpty else {
            throw .invalidConfiguration("the cookie name prefix may hold only letters, digits, '-' and '_'")
        }
        if scheme == "https" { return true }
        guard scheme == "http", EndpointSecurity.isLoopback(host: host) else {
            throw .invalidConfiguration("the base URL must be https, or http on a loopback address")
        }
        return false
    }
}

/// The paths of ``RelyingPartyRoutes``. The defaults live under `/auth/`.
public struct RelyingPartyPaths: Sendable {
    /// GET: starts an OpenID Connect sign-in (`?return_to=/path` says where to go afterwards).
    public var openIDConnectSignIn: String
    /// GET: the OIDC redirect URI's path.
    public var openIDConnectCallback: String
    /// GET: starts a SAML sign-in (`?return_to=/path`).
    public var samlSignIn: String
    /// POST: the SAML Assertion Consumer Service's path.
    public var samlAssertionConsumerService: String
    /// POST: ends the session.
    public var signOut: String

    /// Creates the paths; each defaults to one under `/auth/`.
    public init(
        openIDConnectSignIn: String = "/auth/oidc/signin", openIDConnectCallback: String = "/auth/oidc/callback",
        samlSignIn: String = "/auth/saml/signin", samlAssertionConsumerService: String = "/auth/saml/acs",
        signOut: String = "/auth/signout"
    ) {
        self.openIDConnectSignIn = openIDConnectSignIn
        self.openIDConnectCallback = openIDConnectCallback
        self.samlSignIn = samlSignIn
        self.samlAssertionConsumerService = samlAssertionConsumerService
        self.signOut = signOut
    }
}

extension UInt8 {
    fileprivate var isCookieNameByte: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || (self >= 0x30 && self <= 0x39)
            || self == 0x2D || self == 0x5F
    }
}

extension RelyingPartyError {
    static func invalidConfiguration(_ message: String) -> RelyingPartyError {
        RelyingPartyError(.invalidConfiguration, status: .internalServerError, message)
    }
}
