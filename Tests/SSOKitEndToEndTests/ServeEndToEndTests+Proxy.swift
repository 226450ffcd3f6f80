import Foundation
import Testing

/// What the proxy tests of `ssokit serve` share.
extension ServeEndToEndTests {
    /// `ssokit serve` for `idp` with the proxy on a free port, and that port.
    func startProxiedServe(_ idp: DevIdPProcess) async throws -> (serve: ServeProcess, port: Int) {
        let serve = try await startServe(idp, extra: ["--proxy-port", "0"])
        let listening = try #require(await serve.waitForLog("proxy listening"))
        let port = try #require((listening["port"] as? String).flatMap { Int($0) })
        return (serve, port)
    }

    /// A web app's authorization request at `idp` (PKCE, its own state and nonce).
    func webAppAuthorizeURL(_ idp: DevIdPProcess, state: String) -> String {
        idp.baseURL + "/authorize?response_type=code&client_id=ssokit-demo"
            + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcallback&scope=openid&state=\(state)&nonce=n-\(state)"
            + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256"
    }
}
