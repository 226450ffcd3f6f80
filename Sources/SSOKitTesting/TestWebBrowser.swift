import Foundation
import HTTPTypes
import SSOKitCore

/// One answer, as a test reads it.
public struct TestWebPage: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields.
    public let headers: HTTPFields
    /// The body as UTF-8 text.
    public let body: String

    /// Creates a page.
    public init(status: Int, headers: HTTPFields, body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The Location header.
    public var location: String? { headers[.location] }

    /// The Set-Cookie line for `name`.
    public func setCookie(_ name: String) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }

    /// The value of the hidden input `name`, written `name="…" value="…"` (the dev IdP's forms, auto-post pages).
    public func hiddenInput(_ name: String) -> String? {
        guard let start = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(body[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The action of the page's first form, with `&amp;` read as `&`.
    public var formAction: String? {
        guard let start = body.range(of: "action=\"") else { return nil }
        return String(body[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// A browser for tests of web sign-ins: one cookie jar for every port of a host (as browsers keep cookies), no
/// redirect followed unless asked. Each request goes through `send`, so a test can route some origins to an
/// in-process router and the rest over HTTP.
public actor TestWebBrowser {
    /// Sends one request; returns the response and its body.
    public typealias Send = @Sendable (HTTPRequest, [UInt8]?) async throws -> (HTTPResponse, [UInt8])

    private let sendRequest: Send
    /// The cookies held, by name.
    public private(set) var cookies: [String: String] = [:]

    /// A browser that sends through `send`.
    public init(send: @escaping Send) { sendRequest = send }

    /// A browser that sends over `transport`.
    public init(transport: any HTTPTransport) {
        sendRequest = { request, body in
            let answer = try await transport.send(request, body: body)
            return (answer.response, answer.body)
        }
    }

    /// GETs `url`.
    public func get(_ url: String) async throws -> TestWebPage {
        try await send(.get, url, body: nil)
    }

    /// POSTs `form` urlencoded to `url`.
    public func post(_ url: String, form: [(String, String)]) async throws -> TestWebPage {
        try await send(.post, url, body: FormURLEncoding.encode(form))
    }

    /// GETs `url` and follows 302/303 redirects (at most 10; a path-only Location is taken on `url`'s origin);
    /// returns the first answer that is no redirect.
    public func follow(_ url: String) async throws -> TestWebPage {
        var url = url
        for _ in 0..<10 {
            let page = try await get(url)
            guard [302, 303].contains(page.status), let next = page.location else { return page }
            url = next.hasPrefix("/") ? (Self.origin(of: url) ?? "") + next : next
        }
        throw TestWebBrowserError("more than 10 redirects")
    }

    /// From `signInURL` (a page that redirects to the dev IdP) through the dev IdP's login form, when it shows one;
    /// returns the IdP's last answer: the redirect to the OIDC callback, or the auto-post page for the ACS.
    /// `action` is the button pressed: `login`, or `cancel` to refuse.
    public func signInAtDevIdP(
        from signInURL: String, username: String, password: String, action: String = "login"
    ) async throws -> TestWebPage {
        let start = try await get(signInURL)
        guard [302, 303].contains(start.status), let authorize = start.location else {
            throw TestWebBrowserError("no redirect to the IdP (\(start.status))")
        }
        let form = try await get(authorize)
        guard let handle = form.hiddenInput("login") else { return form }  // signed in at the IdP already
        guard let idp = Self.origin(of: authorize) else { throw TestWebBrowserError("not a URL") }
        return try await post(
            idp + "/login",
            form: [("login", handle), ("username", username), ("password", password), ("action", action)])
    }

    /// Drops the cookie `name`.
    public func forget(_ name: String) { cookies[name] = nil }

    /// Sets the cookie `name` to `value`.
    public func restore(_ name: String, _ value: String) { cookies[name] = value }

    /// `scheme://host[:port]` of `url`.
    public static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    private func send(_ method: HTTPRequest.Method, _ url: String, body: String?) async throws -> TestWebPage {
        guard let target = URL(string: url) else { throw TestWebBrowserError("not a URL") }
        var request = HTTPRequest(method: method, url: target)
        if !cookies.isEmpty {
            request.headerFields[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        if body != nil { request.headerFields[.contentType] = "application/x-www-form-urlencoded" }
        let (response, bytes) = try await sendRequest(request, body.map { Array($0.utf8) })
        for line in response.headerFields[values: .setCookie] {
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            if pair[1].isEmpty || line.contains("Max-Age=0") {
                cookies[String(pair[0])] = nil
            } else {
                cookies[String(pair[0])] = String(pair[1])
            }
        }
        return TestWebPage(
            status: response.status.code, headers: response.headerFields, body: String(decoding: bytes, as: UTF8.self))
    }
}

/// A page a ``TestWebBrowser`` could not go on from.
public struct TestWebBrowserError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
