import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitDevIdP
import SSOKitExtension
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitProxy
import SSOKitSAML
import SSOKitStore
import SSOKitTokenCache

/// Everything the demo runs, on loopback: the dev IdP, the web apps, the adapter on an embedded SQLite cache, and
/// the intercepting proxy with its PAC file. ``shutdown()`` stops them all.
public final class DemoServers: Sendable {
    /// The dev IdP's URL (its OIDC issuer).
    public let identityProviderURL: String
    /// The web apps' server (`/oidc/`, `/saml/`, `/images/NAME`).
    public let webAppsURL: String
    /// The proxy's port on 127.0.0.1.
    public let proxyPort: Int
    /// The PAC file that sends the profile's Redirect origins to the proxy.
    public let autoConfig: ProxyAutoConfig
    /// The demo user's name and password (random for each run).
    public let username = "demo"
    public let password: String
    /// The profile the adapter runs (JSON, as `ssokit serve --profile` reads it).
    public let profileJSON: String

    let adapter: RedirectExtension
    let exchangeLog: DemoExchangeLog
    let browser: DemoBrowser
    private let identityProvider: DevIdentityProvider
    private let webServer: LoopbackWebServer
    private let proxy: InterceptingProxy
    let transport: AsyncHTTPClientTransport

    /// The bundle identifier the browser's intercepted requests carry, as Safari's do on Apple platforms.
    public static let browserBundleIdentifier = "com.apple.Safari"
    /// The app the profile's block list names.
    public static let blockedApp = "com.example.blocked"

    /// Starts everything; `cacheFile` is the SQLite file of the token cache (its folder must exist).
    public static func start(cacheFile: String) async throws -> DemoServers {
        try await start(cacheFile: cacheFile, suppliedPassword: nil)
    }

    /// Starts everything; the extension answers credential questions with `suppliedPassword` when one is given
    /// (tests use a wrong one), else with the demo user's.
    static func start(cacheFile: String, suppliedPassword: String?) async throws -> DemoServers {
        let password = RandomToken.make(byteCount: 12)
        let keys = try DevIdPSigningKeys.generate()
        let identityProvider = try DevIdentityProvider(
            configuration: DevIdPConfiguration(
                keys: keys, users: [try DevIdPUser.demo(password: password)]))
        let idp = try await identityProvider.start().absoluteString.trimmingSuffix("/")
        let transport = AsyncHTTPClientTransport()
        do {
            return try await start(
                identityProvider: identityProvider, idp: idp, keys: keys, password: password,
                suppliedPassword: suppliedPassword ?? password, transport: transport, cacheFile: cacheFile)
        } catch {
            await identityProvider.shutdown()
            try? await transport.shutdown()
            throw error
        }
    }

    private static func start(
        identityProvider: DevIdentityProvider, idp: String, keys: DevIdPSigningKeys, password: String,
        suppliedPassword: String, transport: AsyncHTTPClientTransport, cacheFile: String
    ) async throws -> DemoServers {
        let slot = DemoWebAppsSlot()
        let webServer = try await LoopbackWebServer.start(DemoWebApps.router(slot))
        let web = "http://127.0.0.1:\(webServer.port)"
        let samlEntityID = idp + "/saml/metadata"
        let metadata = try await transport.send(
            HTTPRequest(
                method: .get, scheme: "http", authority: String(idp.dropFirst("http://".count)),
                path: "/saml/metadata"), body: nil)
        guard metadata.response.status == .ok else { throw DemoError("the dev IdP gave no SAML metadata") }
        let relyingParty = OpenIDRelyingParty(
            issuer: idp, clientID: DevIdPDemo.clientID, authentication: .none, transport: transport)
        let saml = SAMLSignIn(
            serviceProviderEntityID: DevIdPDemo.serviceProviderEntityID, identityProviderEntityID: samlEntityID,
            singleSignOnURL: idp + "/saml/sso", identityProviderCertificates: [keys.samlCertificate])
        guard let userInfoEndpoint = try await relyingParty.metadata().userInfoEndpoint else {
            throw DemoError("the dev IdP advertises no UserInfo endpoint")
        }
        let apps = try DemoWebApps.relyingParties(baseURL: web, relyingParty: relyingParty, saml: saml)
        slot.fill(
            DemoWebApps(
                oidcApp: apps.oidc, samlApp: apps.saml,
                userInfo: try UserInfoClient(endpoint: userInfoEndpoint, transport: transport), imageOwner: "demo"))

        let profileJSON = DemoProfile.json(identityProvider: idp, webApps: web, blockedApp: blockedApp)
        let files = DemoProfileFiles(files: [
            DemoProfile.metadataFile: metadata.body, DemoProfile.certificateFile: Array(keys.samlCertificate.pem.utf8),
        ])
        let profile = try ProfileLoader(fileReader: files).load(Array(profileJSON.utf8), directory: "/demo")
        let store = try await SQLiteTokenCacheStore.open(path: cacheFile)
        let adapter = RedirectExtension(
            catalog: try ProfileCatalog(profile),
            environment: ExtensionEnvironment(
                tokenCache: TokenCache(store: store, key: .generate()), transport: transport))
        let exchangeLog = DemoExchangeLog()
        let interceptor = AdapterProxyInterceptor(
            adapter: AdapterSlot(adapter), browserBundleIdentifier: browserBundleIdentifier,
            credentials: .supplied { ["username": "demo", "password": suppliedPassword] },
            onExchange: { exchangeLog.record($0) })
        let prefixes = try [idp + "/authorize", idp + "/saml/sso"].map { url throws(ProxyError) in
            try InterceptPrefix(url)
        }
        var configuration = ProxyConfiguration(interceptPrefixes: prefixes)
        // The IdP's port, and the web apps' for a browser that sends everything to the proxy (Chromium with
        // --proxy-server: it never proxies loopback through a PAC file).
        configuration.allowedPorts = [80, 443, URL(string: idp)?.port ?? 80, webServer.port]
        let proxy = try await InterceptingProxy.start(configuration: configuration, interceptor: interceptor)
        let autoConfig = try ProxyAutoConfig(prefixes: prefixes, proxyPort: proxy.port)
        return DemoServers(
            identityProviderURL: idp, webAppsURL: web, proxyPort: proxy.port, autoConfig: autoConfig,
            password: password, profileJSON: profileJSON, adapter: adapter, exchangeLog: exchangeLog,
            browser: DemoBrowser(autoConfig: autoConfig, proxyPort: proxy.port), identityProvider: identityProvider,
            webServer: webServer, proxy: proxy, transport: transport)
    }

    private init(
        identityProviderURL: String, webAppsURL: String, proxyPort: Int, autoConfig: ProxyAutoConfig,
        password: String, profileJSON: String, adapter: RedirectExtension, exchangeLog: DemoExchangeLog,
        browser: DemoBrowser, identityProvider: DevIdentityProvider, webServer: LoopbackWebServer,
        proxy: InterceptingProxy, transport: AsyncHTTPClientTransport
    ) {
        self.identityProviderURL = identityProviderURL
        self.webAppsURL = webAppsURL
        self.proxyPort = proxyPort
        self.autoConfig = autoConfig
        self.password = password
        self.profileJSON = profileJSON
        self.adapter = adapter
        self.exchangeLog = exchangeLog
        self.browser = browser
        self.identityProvider = identityProvider
        self.webServer = webServer
        self.proxy = proxy
        self.transport = transport
    }

    /// Stops the proxy, the web apps and the IdP.
    public func shutdown() async {
        await browser.shutdown()
        await proxy.shutdown()
        await webServer.shutdown()
        await identityProvider.shutdown()
        try? await transport.shutdown()
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

/// The files the demo profile names, served from memory.
private struct DemoProfileFiles: ProfileFileReader {
    let files: [String: [UInt8]]

    func contents(ofFile path: String, maximumBytes: Int) throws -> [UInt8] {
        guard let bytes = files[(path as NSString).lastPathComponent], bytes.count <= maximumBytes else {
            throw DemoError("the demo profile names no file \(path)")
        }
        return bytes
    }
}
