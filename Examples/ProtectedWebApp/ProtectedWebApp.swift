import ArgumentParser
import Foundation
import Hummingbird
import SSOKitCore
import SSOKitHummingbird
import SSOKitOIDC

/// A small web app whose pages need a signed-in user, with OpenID Connect, SAML or both, configured from the
/// command line. `GET /` is public and links to both sign-ins; `GET /profile` shows the signed-in user; the sign-in
/// routes are SSOKitHummingbird's (the OIDC callback at `/callback` and the ACS at `/saml/acs`, as the dev IdP's
/// demo registrations expect).
///
///     ProtectedWebAppExample --port 8080 \
///         --oidc-issuer http://127.0.0.1:9000 --oidc-client-id ssokit-demo \
///         --saml-metadata-url http://127.0.0.1:9000/saml/metadata --saml-sp-entity-id urn:ssokit:demo-sp
@main
struct ProtectedWebApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ProtectedWebAppExample", abstract: "A web app protected by SSOKitHummingbird's sign-in routes.")

    @Option(help: "The loopback address to listen on (the example speaks plain HTTP).")
    var host = "127.0.0.1"
    @Option(help: "The port.")
    var port = 8080
    @Option(help: "The OpenID Provider's issuer URL.")
    var oidcIssuer: String?
    @Option(help: "The OIDC client ID (a public client: PKCE, no secret).")
    var oidcClientID: String?
    @Option(help: "The SAML IdP's metadata URL.")
    var samlMetadataURL: String?
    @Option(help: "This app's SAML entity ID, as registered at the IdP.")
    var samlSPEntityID: String?

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1...65535") }
        guard (oidcIssuer == nil) == (oidcClientID == nil) else {
            throw ValidationError("--oidc-issuer and --oidc-client-id go together")
        }
        guard (samlMetadataURL == nil) == (samlSPEntityID == nil) else {
            throw ValidationError("--saml-metadata-url and --saml-sp-entity-id go together")
        }
        guard oidcIssuer != nil || samlMetadataURL != nil else {
            throw ValidationError("configure OIDC (--oidc-issuer, --oidc-client-id), SAML, or both")
        }
        guard host == "127.0.0.1" || host == "::1" else {
            throw ValidationError("this example speaks plain HTTP, so it listens on 127.0.0.1 or ::1 only")
        }
    }

    func run() async throws {
        let transport = AsyncHTTPClientTransport()
        do {
            try await serve(transport: transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
    }

    private func serve(transport: AsyncHTTPClientTransport) async throws {
        let baseURL = "http://\(host == "::1" ? "[::1]" : host):\(port)"
        let storage = MemoryPersistDriver()
        let routes = try await SignInSetup(
            baseURL: baseURL, oidcIssuer: oidcIssuer, oidcClientID: oidcClientID, samlMetadataURL: samlMetadataURL,
            samlSPEntityID: samlSPEntityID
        ).routes(storage: storage, transport: transport)
        let router = Router(context: SignedInUserRequestContext.self)
        routes.addRoutes(to: router)
        let defaultProtocol: SignedInUser.SignInProtocol = oidcIssuer != nil ? .openIDConnect : .saml
        router.get("/") { _, _ in Pages.home(routes.configuration) }
        router.group("/profile").add(middleware: routes.signInRequired(with: defaultProtocol))
            .get { _, context in Pages.profile(context.signedInUser, signOutPath: routes.configuration.paths.signOut) }
        var application = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { _ in
                // Unbuffered, so that whoever started the app can wait for this line on a pipe.
                FileHandle.standardOutput.write(Data("READY \(baseURL)\n".utf8))
            })
        application.addServices(storage)
        try await application.runService()
    }
}
