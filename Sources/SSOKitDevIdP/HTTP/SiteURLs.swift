/// The IdP's URLs, known once it listens: the base URL is the OIDC issuer, and every endpoint hangs off it.
struct SiteURLs: Sendable {
    /// `http://HOST:PORT`, no trailing slash.
    let base: String

    var issuer: String { base }
    var authorization: String { base + Path.authorization }
    var token: String { base + Path.token }
    var userInfo: String { base + Path.userInfo }
    var jwks: String { base + Path.jwks }
    var revocation: String { base + Path.revocation }
    var endSession: String { base + Path.endSession }
    /// The SAML entity ID: the metadata URL, as is customary.
    var samlEntityID: String { samlMetadata }
    var samlMetadata: String { base + Path.samlMetadata }
    var samlSingleSignOn: String { base + Path.samlSingleSignOn }
    var samlSingleLogout: String { base + Path.samlSingleLogout }

    /// The paths the router serves.
    enum Path {
        static let discovery = "/.well-known/openid-configuration"
        static let authorization = "/authorize"
        static let login = "/login"
        static let token = "/token"
        static let userInfo = "/userinfo"
        static let jwks = "/jwks"
        static let revocation = "/revoke"
        static let endSession = "/logout"
        static let confirmLogout = "/logout/confirm"
        static let samlMetadata = "/saml/metadata"
        static let samlSingleSignOn = "/saml/sso"
        static let samlSingleLogout = "/saml/slo"
        static let health = "/healthz"
    }
}
