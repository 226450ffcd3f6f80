import Foundation
import Testing

/// `ssokit serve` as a process against `ssokit dev-idp`: the app API on a Unix socket (login with a credentials
/// interaction, then single sign-on for a second app), the caller registry, bad input, a profile reload (good and
/// bad), slow clients, plain TCP only on loopback, and a clean exit on SIGTERM.
@Suite(.serialized)
struct ServeEndToEndTests {
    static let password = "alice-serve-password"
    let folder: URL

    init() throws {
        // A short path: a Unix socket's path holds at most 107 bytes.
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("serve-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"users": [{"username": "alice", "password": "\#(Self.password)", "claims": {"name": "Alice"}}]}"#
            .write(to: folder.appendingPathComponent("users.json"), atomically: true, encoding: .utf8)
    }

    var socket: String { folder.appendingPathComponent("s.sock").path }

    /// The dev IdP's demo client as a Redirect payload (`identifier` lets a reload drop it).
    func profile(_ idp: String, identifier: String = "e2e.serve.oidc") -> String {
        """
        {"PayloadContent": [
         {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "\(identifier)",
          "ExtensionIdentifier": "com.example.sso.extension", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
          "URLs": ["\(idp)/authorize"],
          "ExtensionData": {"protocol": "oidc", "issuer": "\(idp)", "client_id": "ssokit-demo", "client_auth": "none",
           "scopes": "openid profile", "redirect_uri": "http://127.0.0.1:9/callback"}}]}
        """
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// `ssokit serve` on the socket with the profile for `idp` and a registry giving this uid two apps.
    func startServe(_ idp: DevIdPProcess, extra: [String] = []) async throws -> ServeProcess {
        let profile = try write("profile.json", profile(idp.baseURL))
        let registry = try write(
            "registry.json", #"{"uids": {"\#(getuid())": ["com.example.mail", "com.example.notes"]}}"#)
        return try await ServeProcess(
            [
                "--profile", profile, "--socket", socket, "--registry", registry, "--cache",
                folder.appendingPathComponent("cache").path,
            ] + extra, folder: folder)
    }

    func startIdP() async throws -> DevIdPProcess {
        try await DevIdPProcess(arguments: ["--users", folder.appendingPathComponent("users.json").path])
    }

    func authorize(_ app: String, _ idp: DevIdPProcess, operation: String = "login") async throws
        -> SocketHTTP.Answer
    {
        try await SocketHTTP.post(
            socket, "/v1/authorize",
            body: #"{"app": "\#(app)", "operation": "\#(operation)", "url": "\#(idp.baseURL)/authorize"}"#)
    }

    @Test func loginThenSingleSignOnRegistryBadInputAndSIGTERM() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let serve = try await startServe(idp)
        #expect(serve.address == "unix:" + socket)
        #expect(serve.stdout == "READY unix:\(socket)\n")
        let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let health = try await SocketHTTP.get(socket, "/healthz")
        #expect(health.status == 200)
        #expect(health.json?["status"] as? String == "ok")

        // A login: the dev IdP's form asks for credentials, answered through the interaction route.
        let first = try await authorize("com.example.mail", idp)
        #expect(first.status == 200)
        #expect(first.result == "needs_interaction", "\(first.body)")
        let interaction = try #require(first.json?["interaction"] as? [String: Any])
        #expect(interaction["kind"] as? String == "credentials")
        let id = try #require(interaction["id"] as? String)
        let answered = try await SocketHTTP.post(
            socket, "/v1/interactions/\(id)", body: #"{"username": "alice", "password": "\#(Self.password)"}"#)
        #expect(answered.result == "http_response", "\(answered.body)")
        let body = try #require(
            (answered.json?["body"] as? String).flatMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            })
        let accessToken = try #require(body["access_token"] as? String)

        // Single sign-on: a second app, no interaction.
        let second = try await authorize("com.example.notes", idp)
        #expect(second.result == "http_response", "\(second.body)")
        #expect(second.json?["interaction"] is NSNull)

        // An app this uid may not act as: 403 and no token.
        let other = try await authorize("com.example.other", idp, operation: "refresh")
        #expect(other.status == 403)
        #expect(other.error == "app_not_permitted")
        #expect(!other.body.contains("token"))

        // Bad input: 400 and 413 with the error shape; never a 5xx.
        let malformed = try await SocketHTTP.post(socket, "/v1/authorize", body: "{not json")
        #expect(malformed.status == 400)
        #expect(malformed.error == "invalid_json")
        let huge = try await SocketHTTP.post(
            socket, "/v1/authorize",
            body: #"{"app": "com.example.mail", "pad": ""# + String(repeating: "x", count: 70_000) + #""}"#)
        #expect(huge.status == 413)
        #expect(huge.error == "too_large")

        #expect(await serve.stop(signal: SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed on exit")
        // The log: JSON lines, none carrying a secret.
        let log = serve.stderr
        #expect(!serve.logLines.isEmpty)
        #expect(serve.logLines.count == log.split(separator: "\n").count, "every log line is JSON")
        #expect(!log.contains(accessToken))
        #expect(!log.contains(Self.password))
        #expect(!log.contains(id))
    }

    @Test func sighupReloadsAValidProfileAndKeepsTheRunningOneOtherwise() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let serve = try await startServe(idp)
        let started = try await authorize("com.example.mail", idp)
        let id = try #require((started.json?["interaction"] as? [String: Any])?["id"] as? String)
        let login = try await SocketHTTP.post(
            socket, "/v1/interactions/\(id)", body: #"{"username": "alice", "password": "\#(Self.password)"}"#)
        try #require(login.result == "http_response", "\(login.body)")

        // An invalid profile: refused, logged, and the running one stays.
        _ = try write("profile.json", #"{"PayloadContent": [{"PayloadType": "com.apple.extensiblesso"}]}"#)
        serve.send(SIGHUP)
        let refused = await serve.waitForLog("profile reload refused; the running profile stays")
        #expect(refused?["error"] as? String == "invalid_profile")
        let cached = try await authorize("com.example.mail", idp, operation: "refresh")
        #expect(cached.result == "http_response", "\(cached.body)")

        // A valid profile without the payload: it replaces the running one, and the dropped payload's entries go
        // (the system's configurationRemoved).
        _ = try write("profile.json", profile(idp.baseURL, identifier: "e2e.serve.renamed"))
        serve.send(SIGHUP)
        let removed = await serve.waitForLog("configuration removed")
        #expect(removed?["payload"] as? String == "e2e.serve.oidc")
        #expect(await serve.waitForLog("profile reloaded") != nil)
        let afterwards = try await authorize("com.example.mail", idp, operation: "refresh")
        #expect(afterwards.result == "failure")
        #expect((afterwards.json?["error"] as? [String: Any])?["reason"] as? String == "login_required")
        #expect(await serve.stop(signal: SIGINT) == 0)
    }

    @Test func aSlowClientIsDisconnected() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let serve = try await startServe(idp, extra: ["--request-timeout", "1"])
        let socket = self.socket
        let closedWithin = try await SocketHTTP.offPool { () throws -> Duration in
            let descriptor = try SocketHTTP.connect(socket)
            defer { close(descriptor) }
            let start = ContinuousClock.now
            try SocketHTTP.send(descriptor, Array("POST /v1/authorize HTTP/1.1\r\nHost: ssokit\r\n".utf8))
            _ = SocketHTTP.readToEnd(descriptor)
            return ContinuousClock.now - start
        }
        // Closed by the server (the client's own receive timeout is 10 s).
        #expect(closedWithin < .seconds(9))
        let health = try await SocketHTTP.get(socket, "/healthz")
        #expect(health.status == 200)
        #expect(await serve.stop() == 0)
    }

    @Test func aBrowserThroughTheProxySignsInOnTheExtensionsPageThenSingleSignOn() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let (serve, port) = try await startProxiedServe(idp)
        let authority = String(idp.baseURL.dropFirst("http://".count))
        let idpPort = try #require(authority.split(separator: ":").last)

        // The PAC file names the profile's Redirect origin only.
        let pac = try await SocketHTTP.get(socket, "/proxy.pac")
        #expect(pac.status == 200)
        #expect(pac.headers["content-type"] == "application/x-ns-proxy-autoconfig")
        #expect(pac.body.contains("\"http 127.0.0.1 \(idpPort)\": true"))
        #expect(pac.body.contains("PROXY 127.0.0.1:\(port)"))

        func viaProxy(_ method: String, _ url: String, cookie: String? = nil, form: String? = nil) async throws
            -> SocketHTTP.Answer
        {
            var request = "\(method) \(url) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n"
            if let cookie { request += "Cookie: \(cookie)\r\n" }
            if let form {
                request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
            }
            return try await SocketHTTP.exchange(.loopback(port: port), request + "\r\n" + (form ?? ""))
        }
        func webAppRequest(state: String) -> String { webAppAuthorizeURL(idp, state: state) }

        // A web app's authorization request: the extension's sign-in page, bound to this browser by a cookie.
        let url = webAppRequest(state: "web-1")
        let page = try await viaProxy("GET", url)
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        let marker = "name=\"ssokit_interaction\" value=\""
        let start = try #require(page.body.range(of: marker)?.upperBound)
        let id = String(page.body[start...].prefix { $0 != "\"" })
        let cookie = try #require(
            page.headers["set-cookie"]?.split(separator: ";").first.map(String.init), "\(page.headers)")
        #expect(cookie.hasPrefix("ssokit_signin_"))

        // An app on the API cannot resume the browser's interaction.
        let stolen = try await SocketHTTP.post(
            socket, "/v1/interactions/\(id)", body: #"{"username": "alice", "password": "\#(Self.password)"}"#)
        #expect(stolen.status == 404)

        // The page's POST (through the proxy again): the compact 302 to the web app.
        let form = "username=alice&password=\(Self.password)&ssokit_interaction=\(id)"
        let signedIn = try await viaProxy("POST", url, cookie: cookie, form: form)
        #expect(signedIn.status == 302, "\(signedIn.body)")
        let location = try #require(signedIn.headers["location"])
        #expect(location.hasPrefix("http://127.0.0.1:9/callback?") && location.contains("state=web-1"))
        #expect(location.contains("code="))

        // The next web flow, and a native app: single sign-on with the browser's login.
        let again = try await viaProxy("GET", webAppRequest(state: "web-2"))
        #expect(again.status == 302)
        #expect(again.headers["location"]?.contains("state=web-2") == true)
        let native = try await authorize("com.example.mail", idp)
        #expect(native.result == "http_response", "\(native.body)")
        #expect(await serve.stop() == 0)
    }

    @Test func sigtermFinishesTheRequestInFlightThenExitsZero() async throws {
        let silent = try SilentServer()
        defer {
            silent.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let issuer = "http://127.0.0.1:\(silent.port)"
        let profile = try write("profile.json", profile(issuer))
        let serve = try await ServeProcess(
            ["--profile", profile, "--socket", socket, "--cache", folder.appendingPathComponent("cache").path],
            folder: folder)
        let socket = self.socket
        // A login whose IdP never answers: in flight until the adapter's transport gives up.
        let inFlight = Task {
            try await SocketHTTP.post(
                socket, "/v1/authorize",
                body: #"{"app": "com.example.mail", "operation": "login", "url": "\#(issuer)/authorize"}"#,
                timeout: 60)
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while silent.connections == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(silent.connections > 0, "the request never reached the IdP")
        serve.send(SIGTERM)
        let answer = try await inFlight.value
        #expect(answer.status == 200)
        #expect(answer.result == "failure", "\(answer.body)")
        #expect(await serve.stop() == 0)
    }

    @Test func plainTCPOnlyOnLoopbackAndOnlyWhenAskedFor() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = try write("profile.json", profile("http://127.0.0.1:9"))
        let cache = folder.appendingPathComponent("cache").path
        for arguments in [
            ["--host", "127.0.0.1", "--port", "0"], ["--host", "192.0.2.1", "--port", "0", "--insecure-loopback"],
            ["--insecure-loopback"], ["--socket", socket, "--host", "127.0.0.1", "--port", "0"],
        ] {
            let refused = try await ProcessRunner.run(
                MockProvider.ssokit, ["serve", "--profile", profile, "--cache", cache] + arguments,
                environment: ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path], timeout: 60)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
        }
        let serve = try await ServeProcess(
            ["--profile", profile, "--cache", cache, "--host", "127.0.0.1", "--port", "0", "--insecure-loopback"],
            folder: folder)
        #expect(serve.address.hasPrefix("http://127.0.0.1:"))
        #expect(serve.stderr.contains("--insecure-loopback"))
        let health = try await LoopbackHTTP.get(serve.address + "/healthz")
        #expect(health.status == 200)
        #expect(await serve.stop() == 0)
    }
}
