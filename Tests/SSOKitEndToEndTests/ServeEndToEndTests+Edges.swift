import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The edges of `ssokit serve` outside its routes: JSON refusals for unknown routes and methods, a connection
/// closed after a non-keep-alive answer, a browser's malformed request answered 400 (not 502), and the sign-in
/// cookie scoped to the intercepted path.
extension ServeEndToEndTests {
    /// Sends `request` on the socket; returns what came back and whether the server closed the connection (EOF)
    /// rather than the 10-second receive timeout ending the read.
    func exchangeUntilClosed(_ request: String) async throws -> (text: String, closedByServer: Bool) {
        let socket = self.socket
        return try await SocketHTTP.offPool {
            let descriptor = try SocketHTTP.connect(socket, timeout: 10)
            defer { close(descriptor) }
            try SocketHTTP.send(descriptor, Array(request.utf8))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    received += buffer[0..<count]
                    continue
                }
                return (String(decoding: received, as: UTF8.self), count == 0)
            }
        }
    }

    @Test func unknownRoutesGetJSONAndNonKeepAliveConnectionsClose() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let serve = try await startServe(idp, extra: ["--request-timeout", "120"])

        let wrongMethod = try await SocketHTTP.get(socket, "/v1/authorize")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.error == "method_not_allowed")
        #expect(wrongMethod.headers["allow"] == "POST")
        let unknown = try await SocketHTTP.get(socket, "/v1/interactions/../authorize")
        #expect(unknown.status == 404)
        #expect(unknown.error == "not_found")
        #expect(try await SocketHTTP.get(socket, "/nowhere").error == "not_found")

        // HTTP/1.0 without keep-alive: answered, then closed by the server (not held until the deadline).
        let old = try await exchangeUntilClosed("GET /healthz HTTP/1.0\r\nHost: ssokit\r\n\r\n")
        #expect(old.text.hasPrefix("HTTP/1.1 200") || old.text.hasPrefix("HTTP/1.0 200"), "\(old.text)")
        #expect(old.closedByServer)
        #expect(await serve.stop() == 0)
    }

    @Test func theProxyAnswers400ToAMalformedRequestAndScopesTheSignInCookie() async throws {
        let idp = try await startIdP()
        defer {
            idp.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let (serve, port) = try await startProxiedServe(idp)
        let authority = String(idp.baseURL.dropFirst("http://".count))
        func viaProxy(_ url: String) async throws -> SocketHTTP.Answer {
            try await SocketHTTP.exchange(
                .loopback(port: port), "GET \(url) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n\r\n")
        }

        let malformed = try await viaProxy(webAppAuthorizeURL(idp, state: "e1") + "&x=<")
        #expect(malformed.status == 400, "\(malformed.status) \(malformed.body)")
        #expect(malformed.body.contains("invalid_request"))

        let page = try await viaProxy(webAppAuthorizeURL(idp, state: "e1"))
        #expect(page.status == 200)
        let setCookie = try #require(page.headers["set-cookie"])
        #expect(setCookie.hasPrefix("ssokit_signin_"))
        #expect(setCookie.contains("; Path=/authorize;"), "\(setCookie)")
        #expect(!setCookie.contains("Path=/;"))
        #expect(await serve.stop() == 0)
    }
}
