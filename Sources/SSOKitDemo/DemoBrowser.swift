import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SSOKitCore
import SSOKitProxy
import SSOKitSAML

/// A browser as far as single sign-on needs one: it consults the PAC file's origins to send the IdP's requests
/// through the proxy and everything else direct, follows redirects itself (at most 20 per visit), keeps cookies
/// per host and port, and submits the auto-post forms SAML uses. It runs no other script.
final class DemoBrowser: Sendable {
    /// What a visit ended on.
    struct Page: Sendable {
        var url: String
        var status: Int
        var text: String
    }

    private let direct: HTTPClient
    private let proxied: HTTPClient
    private let proxiedOrigins: Set<ProxyOrigin>
    private let cookies = CookieStore()

    init(autoConfig: ProxyAutoConfig, proxyPort: Int) {
        proxiedOrigins = Set(autoConfig.origins)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(20)))
        direct = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        configuration.proxy = .server(host: "127.0.0.1", port: proxyPort)
        proxied = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func shutdown() async {
        try? await direct.shutdown()
        try? await proxied.shutdown()
    }

    /// Opens `url` and follows where it leads: redirects, and an auto-post form (a page whose only job is to post
    /// a SAML message) is submitted as a browser's script would.
    func visit(_ url: String) async throws -> Page {
        var method = HTTPMethod.GET
        var target = url
        var body: String?
        for _ in 0..<20 {
            let page = try await send(method, target, formBody: body)
            if (300..<400).contains(page.status), let location = page.location {
                target = try Self.resolve(location, against: target)
                method = .GET
                body = nil
                continue
            }
            if page.status == 200, let form = try? AutoPostFormParser().parse(page.text, pageURL: URL(string: target)) {
                var pairs = [(form.kind.rawValue, form.message)]
                if let relayState = form.relayState { pairs.append(("RelayState", relayState)) }
                target = try Self.resolve(form.action, against: target)
                method = .POST
                body = FormURLEncoding.encode(pairs)
                continue
            }
            return Page(url: target, status: page.status, text: page.text)
        }
        throw DemoError("more than 20 redirects from \(url)")
    }

    private struct Received {
        var status: Int
        var location: String?
        var text: String
    }

    private func send(_ method: HTTPMethod, _ url: String, formBody: String?) async throws -> Received {
        guard let parsed = URL(string: url), let host = parsed.host, let scheme = parsed.scheme else {
            throw DemoError("not a URL: \(url)")
        }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        let origin = ProxyOrigin(scheme: scheme, host: host, port: port)
        var request = HTTPClientRequest(url: url)
        request.method = method
        let cookieHeader = await cookies.header(for: "\(host):\(port)")
        if let cookieHeader { request.headers.add(name: "Cookie", value: cookieHeader) }
        if let formBody {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: formBody))
        }
        let client = origin.map { proxiedOrigins.contains($0) } == true ? proxied : direct
        let response = try await client.execute(request, timeout: .seconds(20))
        for value in response.headers["Set-Cookie"] { await cookies.store(value, for: "\(host):\(port)") }
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Received(
            status: Int(response.status.code), location: response.headers.first(name: "Location"),
            text: String(buffer: bytes))
    }

    private static func resolve(_ location: String, against base: String) throws -> String {
        guard let url = URL(string: location, relativeTo: URL(string: base)) else {
            throw DemoError("cannot follow \(location)")
        }
        return url.absoluteString
    }
}

/// Cookies by host and port: name and value only (the demo's servers are all on loopback, over http).
private actor CookieStore {
    private var jars: [String: [String: String]] = [:]

    func store(_ setCookie: String, for origin: String) {
        guard let pair = setCookie.split(separator: ";").first else { return }
        let parts = pair.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { return }
        let name = parts[0].trimmingCharacters(in: .whitespaces)
        let value = String(parts[1])
        if setCookie.lowercased().contains("max-age=0") || value.isEmpty {
            jars[origin]?[name] = nil
        } else {
            jars[origin, default: [:]][name] = value
        }
    }

    func header(for origin: String) -> String? {
        guard let jar = jars[origin], !jar.isEmpty else { return nil }
        return jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }
}
