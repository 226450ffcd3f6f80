import Foundation
import Hummingbird
import Logging
import SSOKitCore
import SSOKitSAML

/// Sign-in routes for a Hummingbird service that is itself a relying party: an OpenID Connect sign-in and
/// callback, a SAML sign-in and Assertion Consumer Service, and a sign-out, with the signed-in user kept in the
/// service's own persist driver (``SignedInSessions``) and ``SignInRequiredMiddleware`` in front of its pages.
///
/// ```swift
/// let routes = try RelyingPartyRoutes(
///     configuration: RelyingPartyConfiguration(baseURL: "https://app.example.com",
///         openIDConnect: OpenIDConnectSignIn(relyingParty: rp)),
///     storage: MemoryPersistDriver())
/// let router = Router(context: SignedInUserRequestContext.self)
/// routes.addRoutes(to: router)
/// router.group("/app").add(middleware: routes.signInRequired(with: .openIDConnect))
///     .get("/") { _, context in "Hello \(context.signedInUser?.displayName ?? "")" }
/// ```
///
/// Each sign-in's state (OIDC `state`, nonce and PKCE verifier; the SAML RelayState and AuthnRequest ID) stays on
/// the server, expires after ``RelyingPartyConfiguration/loginLifetime``, completes once, and only in the browser
/// that started it: that browser holds the login cookie whose digest the state records. Every refusal is a
/// ``RelyingPartyError`` answered with a page that names its code and holds no value from the request.
public struct RelyingPartyRoutes: Sendable {
    /// The configuration.
    public let configuration: RelyingPartyConfiguration
    /// The sessions of signed-in browsers.
    public let sessions: SignedInSessions
    let logins: LoginStateStore
    let cookies: RelyingPartyCookies
    let clock: any SSOKitClock
    let samlRequests: AuthnRequestBuilder?
    let samlVerifier: SAMLResponseVerifier?

    /// The largest ACS body read: a form with a SAMLResponse (encrypted assertions included) and a RelayState.
    public static let maximumFormBytes = 512 * 1024
    /// The longest OIDC callback query read.
    public static let maximumCallbackQueryBytes = 16 * 1024

    /// Creates the routes over `storage` (the service's persist driver, shared by the service's instances).
    /// Throws ``RelyingPartyError/Code/invalidConfiguration`` for a base URL that is neither https nor loopback
    /// http, a cookie prefix that is no cookie name, or a SAML configuration whose URLs are not http(s).
    public init(
        configuration: RelyingPartyConfiguration, storage: any PersistDriver, clock: any SSOKitClock = SystemClock()
    ) throws(RelyingPartyError) {
        let secure = try configuration.checkedBaseURL()
        self.configuration = configuration
        self.clock = clock
        cookies = RelyingPartyCookies(namePrefix: configuration.cookieNamePrefix, secure: secure)
        logins = LoginStateStore(
            driver: storage, keyPrefix: configuration.storageKeyPrefix, lifetime: configuration.loginLifetime,
            clock: clock)
        sessions = SignedInSessions(
            driver: storage, keyPrefix: configuration.storageKeyPrefix, cookies: cookies,
            lifetime: configuration.sessionLifetime, clock: clock)
        guard let saml = configuration.saml else {
            samlRequests = nil
            samlVerifier = nil
            return
        }
        let acsURL = configuration.baseURL + configuration.paths.samlAssertionConsumerService
        do {
            let builder = try AuthnRequestBuilder(
                serviceProviderEntityID: saml.serviceProviderEntityID, assertionConsumerServiceURL: acsURL,
                clock: clock)
            _ = try builder.build(destination: saml.singleSignOnURL)
            samlRequests = builder
        } catch {
            throw .invalidConfiguration("the SAML ACS or SSO URL is not an absolute http(s) URL")
        }
        samlVerifier = SAMLResponseVerifier(
            configuration: .init(
                serviceProviderEntityID: saml.serviceProviderEntityID, assertionConsumerServiceURL: acsURL,
                identityProviderEntityID: saml.identityProviderEntityID,
                identityProviderCertificates: saml.identityProviderCertificates, decryptionKey: saml.decryptionKey),
            clock: clock, replayGuard: saml.replayGuard)
    }

    /// Adds the sign-in, callback, ACS and sign-out routes at ``RelyingPartyConfiguration/paths``; a protocol
    /// that is not configured answers 404 with ``RelyingPartyError/Code/protocolNotConfigured``.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let paths = configuration.paths
        router.get(RouterPath(paths.openIDConnectSignIn)) { request, context in
            await openIDConnectSignIn(request, logger: context.logger)
        }
        router.get(RouterPath(paths.openIDConnectCallback)) { request, context in
            await openIDConnectCallback(request, logger: context.logger)
        }
        router.get(RouterPath(paths.samlSignIn)) { request, context in
            await samlSignIn(request, logger: context.logger)
        }
        router.post(RouterPath(paths.samlAssertionConsumerService)) { request, context in
            await samlAssertionConsumerService(request, logger: context.logger)
        }
        router.post(RouterPath(paths.signOut)) { request, _ in
            await signOut(request)
        }
    }

    /// The middleware that sends a browser with no session to the sign-in route of `signInProtocol`.
    public func signInRequired<Context: SignedInRequestContext>(with signInProtocol: SignedInUser.SignInProtocol)
        -> SignInRequiredMiddleware<Context>
    {
        let path =
            signInProtocol == .saml ? configuration.paths.samlSignIn : configuration.paths.openIDConnectSignIn
        return SignInRequiredMiddleware(sessions: sessions, signInPath: path)
    }

    /// Ends the browser's session and sends it to `/`.
    func signOut(_ request: Request) async -> Response {
        await sessions.end(request)
        return RelyingPartyPages.redirect(
            to: "/", status: .seeOther, cookies: [cookies.removal(of: cookies.sessionName)])
    }

    /// The login cookie `request` carries, or a fresh one (a browser keeps one for all its sign-ins in progress).
    func loginCookie(of request: Request) -> String {
        RelyingPartyCookies.value(named: cookies.loginName, in: request) ?? SecretToken.make()
    }

    /// A new sign-in's state for the browser holding `browserCookie`.
    func loginState(browserCookie: String, returnPath: String) -> LoginState {
        LoginState(
            browserDigest: SecretToken.digest(browserCookie),
            expiresAt: clock.now.addingTimeInterval(Double(configuration.loginLifetime.components.seconds)),
            returnPath: returnPath)
    }

    /// Runs one route's work; a refusal becomes its error page, logged with its code and reason (never a value).
    func answer(_ logger: Logger, _ work: () async throws(RelyingPartyError) -> Response) async -> Response {
        do {
            return try await work()
        } catch {
            logger.notice(
                "sign-in refused",
                metadata: ["error": .string(error.code.description), "reason": .string(error.reason ?? "-")])
            return RelyingPartyPages.error(error)
        }
    }
}
