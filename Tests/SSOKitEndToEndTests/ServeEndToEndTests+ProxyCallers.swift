import Foundation
import Testing

/// Who may use serve's intercepting proxy: it acts with the server user's single sign-on, so another local user
/// (uid 65534 here, through `setpriv`) is refused for every request, while the server's own uid is served.
extension ServeEndToEndTests {
    static let canSwitchUser =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    /// `curl` through the proxy on `port`, as `uid` (nil: as this process); returns the status and the body.
    func curlThroughProxy(_ url: String, port: Int, as uid: Int?) async throws -> (status: String, body: String) {
        let curl = [
            "/usr/bin/curl", "-s", "--max-time", "20", "-w", "\n%{http_code}", "--proxy", "http://127.0.0.1:\(port)",
            url,
        ]
        let command =
            uid.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] + curl } ?? curl
        let result = try await ProcessRunner.run(
            command[0], Array(command.dropFirst()), environment: ["NO_PROXY": "", "no_proxy": ""], timeout: 60)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test(.enabled(if: canSwitchUser, "needs root, setpriv and curl"))
    func anotherLocalUserIsRefusedByTheProxy() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let (serve, port) = try await startProxiedServe(idp)
        let authorize = webAppAuthorizeURL(idp, state: "s1")

        // Another user: refused before the adapter runs, and for requests that would pass through too.
        let stranger = try await curlThroughProxy(authorize, port: port, as: 65534)
        #expect(stranger.status == "403", "\(stranger)")
        #expect(stranger.body.contains("client_not_permitted"))
        let passThrough = try await curlThroughProxy(
            idp.baseURL + "/.well-known/openid-configuration", port: port, as: 65534)
        #expect(passThrough.status == "403")
        let refusal = await serve.waitForLog("proxy client refused")
        #expect(refusal?["caller"] as? String == "uid:65534", "\(String(describing: refusal))")

        // The server's own user: the extension's sign-in page.
        let owner = try await curlThroughProxy(authorize, port: port, as: nil)
        #expect(owner.status == "200", "\(owner)")
        #expect(owner.body.contains("ssokit_interaction"))
        #expect(await serve.stop() == 0)
    }
}
