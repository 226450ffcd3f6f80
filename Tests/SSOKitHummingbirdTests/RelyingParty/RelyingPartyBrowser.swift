import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SSOKitCore

/// One answer, as the relying-party tests read it.
struct BrowserPage: Sendable {
    let status: Int
    let headers: HTTPFields
    let body: String

    var location: String? { headers[.location] }

    /// The Set-Cookie line for `name`.
    func setCookie(_ name: String) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }

    /// The value of the hidden input `name` (the IdP's login form and auto-post page write them this way).
    func hiddenInput(_ name: String) -> String? {
        guard let start = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(body[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The action of the page's first form.
    var formAction: String? {
        guard let start = body.range(of: "action=\"") else { return nil }
        return String(body[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// A browser for the relying-party tests: one cookie jar for every port of 127.0.0.1 (cookies ignore ports), no
/// redirects followed. Requests to the app's base URL go to Hummingbird's router test client; others (the dev IdP)
/// over HTTP.
actor RelyingPartyBrowser {
    let app: any TestClientProtocol
    let appBaseURL: String
    let transport: any HTTPTransport
    private(set) var cookies: [String: String] = [:]

    init(app: any TestClientProtocol, appBaseURL: String, transport: any HTTPTransport) {
        self.app = app
        self.appBaseURL = appBaseURL
        self.transport = transport
    }

    func get(_ url: String) async throws -> BrowserPage {
        try await send(.get, url, body: nil)
    }

    func post(_ url: String, form: [(String, String)]) async throws -> BrowserPage {
        try await send(.post, url, body: FormURLEncoding.encode(form))
    }

    /// Follows redirects from `url` (at most 10) until an answer that is not one; returns it and the last URL.
    func follow(_ url: String) async throws -> (page: BrowserPage, url: String) {
        var url = url
        for _ in 0..<10 {
            let page = try await get(url)
            guard [302, 303].contains(page.status), let next = page.location else { return (page, url) }
            url = next.hasPrefix("/") ? appBaseURL + next : next
        }
        throw BrowserError("more than 10 redirects")
    }

    /// From the app's `signInURL` through the IdP's login form; returns the IdP's last answer (the redirect to the
    /// OIDC callback, or the auto-post page for the ACS), not yet given to the app.
    func signIn(at signInURL: String, username: String, password: String) async throws -> BrowserPage {
        let start = try await get(signInURL)
        guard start.status == 302, let authorize = start.location else { throw BrowserError("no redirect to the IdP") }
        let form = try await get(authorize)
        guard let handle = form.hiddenInput("login"), let idp = Self.origin(of: authorize) else {
            throw BrowserError("the IdP showed no login form")
        }
        return try await post(
            idp + "/login", form: [("login", handle), ("username", username), ("password", password), ("action", "login")])
    }

    func forget(_ name: String) { cookies[name] = nil }

    func restore(_ name: String, _ value: String) { cookies[name] = value }

    private static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host,
            let port = components.port
        else { return nil }
        return "\(scheme)://\(host):\(port)"
    }

    private func send(_ method: HTTPRequest.Method, _ url: String, body: String?) async throws -> BrowserPage {
        var headers = HTTPFields()
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        let page: BrowserPage
        if url.hasPrefix(appBaseURL) {
            let answer = try await app.executeRequest(
                uri: String(url.dropFirst(appBaseURL.count)), method: method, headers: headers,
                body: body.map { ByteBuffer(string: $0) })
            page = BrowserPage(status: answer.status.code, headers: answer.headers, body: String(buffer: answer.body))
        } else {
            guard let target = URL(string: url) else { throw BrowserError("bad URL") }
            var request = HTTPRequest(method: method, url: target)
            request.headerFields.append(contentsOf: headers)
            let answer = try await transport.send(request, body: body.map { Array($0.utf8) })
            page = BrowserPage(
                status: answer.response.status.code, headers: answer.response.headerFields,
                body: String(decoding: answer.body, as: UTF8.self))
        }
        for line in page.headers[values: .setCookie] {
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            if pair[1].isEmpty || line.contains("Max-Age=0") {
                cookies[String(pair[0])] = nil
            } else {
                cookies[String(pair[0])] = String(pair[1])
            }
        }
        return page
    }
}

struct BrowserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
