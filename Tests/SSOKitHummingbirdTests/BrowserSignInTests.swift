import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SSOKitCore
import SSOKitDevIdP
import SSOKitExtension
import SSOKitHummingbird
import SSOKitProxy
import SSOKitStore
import SSOKitTokenCache
import Testing

/// The intercepting proxy with the adapter behind it, driven by a plain HTTP client through the proxy against the
/// dev IdP: the extension's sign-in page, its POST bound to the browser that got it, the compact 302, and single
/// sign-on for the next web flow.
@Suite(.serialized) struct BrowserSignInTests {
    /// Everything for one test: the dev IdP, the adapter, the proxy and a client that uses it.
    struct Setup {
        let idp: DevIdentityProvider
        let issuer: String
        let password: String
        let owners: InteractionOwners
        let proxy: InterceptingProxy
        let client: HTTPClient
        let transport: AsyncHTTPClientTransport

        static func start() async throws -> Setup {
            let password = "pw-" + UUID().uuidString
            let idp = try DevIdentityProvider(
                configuration: DevIdPConfiguration(
                    keys: try DevIdPSigningKeys.generate(), users: [try DevIdPUser.demo(password: password)]))
            var issuer = try await idp.start().absoluteString
            while issuer.hasSuffix("/") { issuer.removeLast() }
            let profile = """
                {"PayloadContent": [{"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "test.browser",
                 "ExtensionIdentifier": "com.example.ext", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
                 "URLs": ["\(issuer)/authorize"],
                 "ExtensionData": {"protocol": "oidc", "issuer": "\(issuer)", "client_id": "ssokit-demo",
                  "client_auth": "none", "scopes": "openid", "redirect_uri": "http://127.0.0.1:9/callback"}}]}
                """
            let catalog = try ProfileCatalog(ProfileLoader().load(Array(profile.utf8), directory: nil))
            let cache = TokenCache(store: InMemoryTokenCacheStore(), key: .generate())
            let transport = AsyncHTTPClientTransport()
            let slot = AdapterSlot(
                RedirectExtension(
                    catalog: catalog, environment: ExtensionEnvironment(tokenCache: cache, transport: transport)))
            let owners = InteractionOwners(cache: cache)
            let prefixes = try RedirectIntercepts.prefixes(catalog)
            var configuration = ProxyConfiguration(interceptPrefixes: prefixes)
            configuration.allowedPorts.formUnion(prefixes.map(\.origin.port))
            let proxy = try await InterceptingProxy.start(
                configuration: configuration,
                interceptor: AdapterProxyInterceptor(adapter: slot, credentials: .signInPage(owners: owners)))
            var clientConfiguration = HTTPClient.Configuration(redirectConfiguration: .disallow)
            clientConfiguration.proxy = .server(host: "127.0.0.1", port: proxy.port)
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
            return Setup(
                idp: idp, issuer: issuer, password: password, owners: owners, proxy: proxy, client: client,
                transport: transport)
        }

        func stop() async {
            try? await client.shutdown()
            await proxy.shutdown()
            await idp.shutdown()
            try? await transport.shutdown()
        }

        /// A web app's authorization request (PKCE, its own state).
        func authorizeURL(state: String) -> String {
            issuer + "/authorize?"
                + FormURLEncoding.encode([
                    ("response_type", "code"), ("client_id", "ssokit-demo"),
                    ("redirect_uri", "http://127.0.0.1:9/callback"), ("scope", "openid"), ("state", state),
                    ("nonce", "n-" + state), ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
                    ("code_challenge_method", "S256"),
                ])
        }

        func send(_ url: String, form: [(String, String)]? = nil, cookie: String? = nil) async throws -> Answer {
            var request = HTTPClientRequest(url: url)
            if let form {
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: FormURLEncoding.encode(form)))
            }
            if let cookie { request.headers.add(name: "Cookie", value: cookie) }
            let response = try await client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Answer(
                status: Int(response.status.code), headers: response.headers, text: String(buffer: body))
        }
    }

    struct Answer {
        let status: Int
        let headers: HTTPHeaders
        let text: String

        /// The sign-in page's interaction ID.
        var interactionID: String? {
            let marker = "name=\"ssokit_interaction\" value=\""
            guard let start = text.range(of: marker)?.upperBound, let end = text[start...].firstIndex(of: "\"")
            else { return nil }
            return String(text[start..<end])
        }

        /// `name=value` of the binding cookie the page set.
        var bindingCookie: String? {
            headers["Set-Cookie"].first { $0.hasPrefix("ssokit_signin_") }?.split(separator: ";").first.map(String.init)
        }
    }

    @Test func theSignInPageResumesOnlyForItsBrowserThenSingleSignOn() async throws {
        let setup = try await Setup.start()
        defer { Task { await setup.stop() } }
        let url = setup.authorizeURL(state: "first")

        let page = try await setup.send(url)
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"].first?.hasPrefix("text/html") == true)
        #expect(page.text.contains("<form method=\"post\""))
        #expect(page.text.contains("name=\"username\"") && page.text.contains("type=\"password\""))
        let id = try #require(page.interactionID)
        let cookie = try #require(page.bindingCookie)
        let setCookie = try #require(page.headers["Set-Cookie"].first)
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
        let form = [("username", "demo"), ("password", setup.password), ("ssokit_interaction", id)]

        // No cookie, another browser's cookie, or an app on the API: none resumes it.
        #expect(try await setup.send(url, form: form).status == 403)
        let forged = cookie.split(separator: "=")[0] + "=" + String(repeating: "A", count: 43)
        #expect(try await setup.send(url, form: form, cookie: String(forged)).status == 403)
        #expect(await !setup.owners.claim(id, by: CallerIdentity.localUser(uid: 1000).description))

        // Its browser: the compact 302 to the web app, with the app's state and a code.
        let signedIn = try await setup.send(url, form: form, cookie: cookie)
        #expect(signedIn.status == 302, "\(signedIn.text)")
        let location = try #require(signedIn.headers["Location"].first)
        #expect(location.hasPrefix("http://127.0.0.1:9/callback?"))
        #expect(location.contains("code=") && location.contains("state=first"))
        #expect(signedIn.headers["Set-Cookie"].contains { $0.contains("Max-Age=0") })
        // Used once.
        #expect(try await setup.send(url, form: form, cookie: cookie).status == 403)

        // The next web flow: single sign-on, no page.
        let again = try await setup.send(setup.authorizeURL(state: "second"))
        #expect(again.status == 302)
        #expect(again.headers["Location"].first?.contains("state=second") == true)

        // Outside the prefixes, requests pass through to the IdP.
        let discovery = try await setup.send(setup.issuer + "/.well-known/openid-configuration")
        #expect(discovery.status == 200 && discovery.text.contains("\"issuer\""))
    }

    @Test func wrongCredentialsGetARefusalPageWithoutTheSecret() async throws {
        let setup = try await Setup.start()
        defer { Task { await setup.stop() } }
        let url = setup.authorizeURL(state: "s")
        let page = try await setup.send(url)
        let id = try #require(page.interactionID)
        let cookie = try #require(page.bindingCookie)
        let refused = try await setup.send(
            url, form: [("username", "demo"), ("password", "guess-77"), ("ssokit_interaction", id)], cookie: cookie)
        #expect(refused.status == 401)
        #expect(refused.text.contains("refused"))
        #expect(!refused.text.contains("guess-77"))
    }
}
