import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SSOKitCore
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitSAML
import Synchronization

/// The demo's web side, on one loopback server: a web app that signs users in with OIDC (`/oidc/`), one that
/// signs them in with SAML (`/saml/`), and an image service for native apps (`/images/NAME`, Bearer tokens checked
/// at the IdP's UserInfo). Each web app is SSOKitHummingbird's ``RelyingPartyRoutes`` with a session of its own (its
/// own cookie prefix): the OIDC app redeems its code with PKCE and verifies the ID token, the SAML app verifies the
/// signed assertion; each page that needs a user says who is signed in.
struct DemoWebApps: Sendable {
    /// The OIDC web app's routes (`/oidc/signin`, the redirect URI `/callback`).
    let oidcApp: RelyingPartyRoutes
    /// The SAML web app's routes (`/saml/signin`, the ACS `/saml/acs`).
    let samlApp: RelyingPartyRoutes
    /// UserInfo of the IdP, for the image service, and the subject it serves.
    let userInfo: UserInfoClient
    let imageOwner: String

    /// The two web apps for the server at `baseURL`: the dev IdP's demo client accepts `/callback`, and its demo SP
    /// `/saml/acs`, on any port of 127.0.0.1.
    static func relyingParties(
        baseURL: String, relyingParty: OpenIDRelyingParty, saml: SAMLSignIn
    ) throws(RelyingPartyError) -> (oidc: RelyingPartyRoutes, saml: RelyingPartyRoutes) {
        let storage = MemoryPersistDriver()
        let oidc = try RelyingPartyRoutes(
            configuration: RelyingPartyConfiguration(
                baseURL: baseURL,
                paths: RelyingPartyPaths(
                    openIDConnectSignIn: "/oidc/signin", openIDConnectCallback: "/callback", signOut: "/oidc/signout"),
                openIDConnect: OpenIDConnectSignIn(relyingParty: relyingParty), cookieNamePrefix: "oidc",
                storageKeyPrefix: "oidc."),
            storage: storage)
        let samlRoutes = try RelyingPartyRoutes(
            configuration: RelyingPartyConfiguration(
                baseURL: baseURL,
                paths: RelyingPartyPaths(
                    samlSignIn: "/saml/signin", samlAssertionConsumerService: "/saml/acs", signOut: "/saml/signout"),
                saml: saml, cookieNamePrefix: "saml", storageKeyPrefix: "saml."),
            storage: storage)
        return (oidc, samlRoutes)
    }

    /// The routes; until `slot` holds the apps (they need the server's port), every request gets a 503.
    static func router(_ slot: DemoWebAppsSlot) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: SignInRoutes(slot: slot))
        router.get("/oidc/") { request, _ in
            await slot.apps?.home(request, saml: false) ?? unavailable
        }
        router.get("/saml/") { request, _ in
            await slot.apps?.home(request, saml: true) ?? unavailable
        }
        router.get("/images/{name}") { request, context in
            await slot.apps?.image(named: context.parameters.get("name") ?? "", request: request) ?? unavailable
        }
        return router
    }

    private static var unavailable: Response { Response(status: .serviceUnavailable) }

    /// A web app's page: who is signed in, or a redirect to its sign-in route.
    private func home(_ request: Request, saml: Bool) async -> Response {
        let routes = saml ? samlApp : oidcApp
        guard let user = await routes.sessions.user(for: request) else {
            let signIn = saml ? routes.configuration.paths.samlSignIn : routes.configuration.paths.openIDConnectSignIn
            return Self.redirect(to: signIn + "?" + FormURLEncoding.encode([("return_to", request.uri.path)]))
        }
        return Self.page("\(saml ? "SAML" : "OIDC") web app: signed in as \(user.displayName)")
    }

    // MARK: Images for native apps

    private func image(named name: String, request: Request) async -> Response {
        guard let picture = DemoImages.svg[name] else { return Self.page("no such image", status: .notFound) }
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            authorization.utf8.count < 4096
        else { return Self.bearerChallenge(error: nil) }
        do {
            _ = try await userInfo.fetch(
                accessToken: String(authorization.dropFirst("Bearer ".count)), expectedSubject: imageOwner)
        } catch {
            return Self.bearerChallenge(error: "invalid_token")
        }
        var headers = HTTPFields()
        headers[.contentType] = "image/svg+xml"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: picture)))
    }

    // MARK: Responses

    private static func page(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let html = "<!DOCTYPE html><title>SSOKit demo</title><p>\(HTMLText.escape(text))</p>\n"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    private static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .found, headers: headers)
    }

    private static func bearerChallenge(error: String?) -> Response {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = error.map { "Bearer realm=\"demo\", error=\"\($0)\"" } ?? "Bearer realm=\"demo\""
        return Response(status: .unauthorized, headers: headers)
    }
}

/// The web apps' sign-in routes, found in the slot once the server knows its port.
private struct SignInRoutes: RouterMiddleware {
    typealias Context = BasicRequestContext
    let slot: DemoWebAppsSlot

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let apps = slot.apps else { return try await next(request, context) }
        if let answer = await apps.oidcApp.respond(to: request, logger: context.logger) { return answer }
        if let answer = await apps.samlApp.respond(to: request, logger: context.logger) { return answer }
        return try await next(request, context)
    }
}

/// Where the web apps' routes find the apps once the server knows its port.
final class DemoWebAppsSlot: Sendable {
    private let slot = Mutex<DemoWebApps?>(nil)

    var apps: DemoWebApps? { slot.withLock { $0 } }

    func fill(_ apps: DemoWebApps) { slot.withLock { $0 = apps } }
}
