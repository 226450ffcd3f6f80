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
/// at the IdP's UserInfo). Each page that needs a user says who is signed in; each login is a real one: the OIDC
/// app redeems its code with PKCE and verifies the ID token, the SAML app verifies the signed assertion.
struct DemoWebApps: Sendable {
    /// The OIDC client, as registered with the dev IdP.
    let relyingParty: OpenIDRelyingParty
    /// The SAML SP's verifier and the IdP's SSO URL.
    let samlVerifier: SAMLResponseVerifier
    let samlSingleSignOnURL: String
    /// UserInfo of the IdP, for the image service, and the subject it serves.
    let userInfo: UserInfoClient
    let imageOwner: String
    let baseURL: String
    let sessions = DemoWebSessions()

    /// Each app its own session cookie: they share an origin here, as two apps on one host would share cookies.
    static let oidcCookie = "oidc_session"
    static let samlCookie = "saml_session"
    static let maximumBody = 256 * 1024

    /// The redirect URI: the dev IdP's demo client accepts `/callback` on any port of 127.0.0.1.
    var oidcRedirectURI: String { baseURL + "/callback" }

    /// The routes; until `slot` holds the apps (they need the server's port), every request gets a 503.
    static func router(_ slot: DemoWebAppsSlot) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get("/oidc/") { request, _ in await slot.apps?.oidcHome(request) ?? unavailable }
        router.get("/callback") { request, _ in await slot.apps?.oidcCallback(request) ?? unavailable }
        router.get("/saml/") { request, _ in await slot.apps?.samlHome(request) ?? unavailable }
        router.post("/saml/acs") { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: Self.maximumBody)
            return await slot.apps?.samlACS(String(buffer: body)) ?? unavailable
        }
        router.get("/images/{name}") { request, context in
            await slot.apps?.image(named: context.parameters.get("name") ?? "", request: request) ?? unavailable
        }
        return router
    }

    private static var unavailable: Response { Response(status: .serviceUnavailable) }

    // MARK: OIDC web app

    private func oidcHome(_ request: Request) async -> Response {
        if let name = await signedInName(request, cookie: Self.oidcCookie) {
            return Self.page("OIDC web app: signed in as \(name)")
        }
        do {
            let login = try await relyingParty.authorizationRequest(
                redirectURI: oidcRedirectURI, scopes: ["openid", "profile", "email"])
            await sessions.startOIDCLogin(login)
            return Self.redirect(to: login.url.absoluteString)
        } catch {
            return Self.page("OIDC web app: cannot start a login (\(error.code))", status: .badGateway)
        }
    }

    private func oidcCallback(_ request: Request) async -> Response {
        let query = request.uri.query ?? ""
        guard let state = request.uri.queryParameters.get("state"),
            let login = await sessions.finishOIDCLogin(state: state)
        else { return Self.page("OIDC web app: no login in flight for this callback", status: .badRequest) }
        do {
            let result = try await relyingParty.completeLogin(callbackQuery: query, request: login)
            let name = result.claims.all["name"]?.stringValue ?? result.claims.subject
            return Self.redirect(to: baseURL + "/oidc/", cookie: (Self.oidcCookie, await sessions.signIn(name)))
        } catch {
            return Self.page("OIDC web app: login refused (\(error.code))", status: .forbidden)
        }
    }

    // MARK: SAML web app

    private func samlHome(_ request: Request) async -> Response {
        if let name = await signedInName(request, cookie: Self.samlCookie) {
            return Self.page("SAML web app: signed in as \(name)")
        }
        do {
            let builder = try AuthnRequestBuilder(
                serviceProviderEntityID: samlVerifier.configuration.serviceProviderEntityID,
                assertionConsumerServiceURL: samlVerifier.configuration.assertionConsumerServiceURL)
            let authnRequest = try builder.build(destination: samlSingleSignOnURL)
            let relayState = await sessions.startSAMLLogin(requestID: authnRequest.id)
            return Self.redirect(
                to: try RedirectBinding.url(
                    destination: samlSingleSignOnURL, xml: authnRequest.xml, relayState: relayState))
        } catch {
            return Self.page("SAML web app: cannot start a login (\(error.code))", status: .badGateway)
        }
    }

    private func samlACS(_ body: String) async -> Response {
        let fields = Dictionary(FormURLEncoding.decode(body) ?? []) { first, _ in first }
        guard let posted = fields["SAMLResponse"], let relayState = fields["RelayState"],
            let requestID = await sessions.finishSAMLLogin(relayState: relayState)
        else { return Self.page("SAML web app: no login in flight for this Response", status: .badRequest) }
        do {
            let assertion = try await samlVerifier.verify(
                postedResponse: posted, solicitation: .request(id: requestID))
            let displayName =
                assertion.attributes.first { $0.friendlyName == "displayName" || $0.name.hasSuffix("113730.3.1.241") }?
                .values.first ?? assertion.nameID
            return Self.redirect(to: baseURL + "/saml/", cookie: (Self.samlCookie, await sessions.signIn(displayName)))
        } catch {
            return Self.page("SAML web app: Response refused (\(error.code))", status: .forbidden)
        }
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

    private func signedInName(_ request: Request, cookie: String) async -> String? {
        for field in request.headers where field.name == .cookie {
            for pair in field.value.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == cookie,
                    let name = await sessions.name(forCookie: String(parts[1]))
                {
                    return name
                }
            }
        }
        return nil
    }

    private static func page(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let html = "<!DOCTYPE html><title>SSOKit demo</title><p>\(HTMLText.escape(text))</p>\n"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    private static func redirect(to location: String, cookie: (name: String, value: String)? = nil) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        if let cookie { headers[.setCookie] = "\(cookie.name)=\(cookie.value); Path=/; HttpOnly; SameSite=Lax" }
        return Response(status: .found, headers: headers)
    }

    private static func bearerChallenge(error: String?) -> Response {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = error.map { "Bearer realm=\"demo\", error=\"\($0)\"" } ?? "Bearer realm=\"demo\""
        return Response(status: .unauthorized, headers: headers)
    }
}

/// Where the web apps' routes find the apps once the server knows its port.
final class DemoWebAppsSlot: Sendable {
    private let slot = Mutex<DemoWebApps?>(nil)

    var apps: DemoWebApps? { slot.withLock { $0 } }

    func fill(_ apps: DemoWebApps) { slot.withLock { $0 = apps } }
}
