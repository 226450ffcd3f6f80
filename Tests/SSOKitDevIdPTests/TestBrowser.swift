import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC

/// One HTTP response as a test reads it.
struct TestResponse: Sendable {
    let status: Int
    let headers: HTTPFields
    let body: String

    /// The Location header.
    var location: String? { headers[.location] }

    /// The query parameters of the Location header.
    var locationQuery: [String: String] {
        guard let location, let query = URLComponents(string: location)?.percentEncodedQuery,
            let pairs = FormURLEncoding.decode(query)
        else { return [:] }
        return Dictionary(pairs) { first, _ in first }
    }

    /// The body as a JSON object.
    var json: [String: JSONValue] { (try? JSONParser().parse(Array(body.utf8)))?.objectValue ?? [:] }

    /// The value of the hidden input `name`, as the IdP's pages write it.
    func hiddenInput(_ name: String) -> String? {
        guard let start = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(body[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Whether the page is the login form.
    var isLoginForm: Bool { status != 302 && status != 303 && hiddenInput("login") != nil }

    /// The Set-Cookie header for `name`.
    func setCookie(_ name: String) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }
}

/// A browser for tests: keeps cookies, never follows redirects, talks through an ``HTTPTransport``.
actor TestBrowser {
    private let transport: any HTTPTransport
    private(set) var cookies: [String: String] = [:]

    init(transport: any HTTPTransport) { self.transport = transport }

    func get(_ url: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await send(.get, url, body: nil, headers: headers)
    }

    func post(_ url: String, form: [(String, String)], headers: [(String, String)] = []) async throws
        -> TestResponse
    {
        try await send(
            .post, url, body: Array(FormURLEncoding.encode(form).utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers)
    }

    /// GETs `url` and, if the login form appears, submits `username` and `password` (or presses Cancel); returns
    /// the last response (the redirect to the client, an auto-post page, or the form shown again).
    func signIn(at url: String, username: String, password: String, action: String = "login") async throws
        -> TestResponse
    {
        let page = try await get(url)
        guard page.isLoginForm else { return page }
        return try await submitLogin(page, username: username, password: password, action: action)
    }

    /// Submits the login form of `page`.
    func submitLogin(_ page: TestResponse, username: String, password: String, action: String = "login")
        async throws -> TestResponse
    {
        guard let handle = page.hiddenInput("login"), let base = issuerBase(of: lastURL) else {
            throw HarnessError("not a login form")
        }
        return try await post(
            base + "/login",
            form: [("login", handle), ("username", username), ("password", password), ("action", action)])
    }

    /// Forgets one cookie (to play another browser, or a cross-site request).
    func dropCookie(_ name: String) { cookies[name] = nil }

    private var lastURL = ""

    private func issuerBase(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    private func send(_ method: HTTPRequest.Method, _ url: String, body: [UInt8]?, headers: [(String, String)])
        async throws -> TestResponse
    {
        guard let target = URL(string: url) else { throw HarnessError("bad URL \(url)") }
        var request = HTTPRequest(method: method, url: target)
        for (name, value) in headers {
            guard let field = HTTPField.Name(name) else { continue }
            request.headerFields.append(HTTPField(name: field, value: value))
        }
        if !cookies.isEmpty {
            request.headerFields[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        lastURL = url
        let answer = try await transport.send(request, body: body)
        for header in answer.response.headerFields[values: .setCookie] {
            let pair = header.split(separator: ";", maxSplits: 1)[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = String(pair[0])
            if header.contains("Max-Age=0") || pair[1].isEmpty {
                cookies[name] = nil
            } else {
                cookies[name] = String(pair[1])
            }
        }
        return TestResponse(
            status: answer.response.status.code, headers: answer.response.headerFields,
            body: String(decoding: answer.body, as: UTF8.self))
    }
}
