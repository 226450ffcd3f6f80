import Crypto
import Foundation
import HTTPTypes
import SSOKitCore
import Synchronization

/// The configuration and state of an ``InMemoryIdentityProvider``, and its routes.
final class IdentityProviderCore: Sendable {
    let issuer: String
    let clientID: String
    let clientSecret: String
    let username: String
    let password: String
    let clock: any SSOKitClock
    let signer: TestTokenSigner
    let samlPage: InMemoryIdentityProvider.SAMLPage?
    let state: Mutex<ProviderState>

    init(
        issuer: String, clientID: String, clientSecret: String, username: String, password: String,
        clock: any SSOKitClock, signer: TestTokenSigner, samlPage: InMemoryIdentityProvider.SAMLPage?,
        state: ProviderState
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.username = username
        self.password = password
        self.clock = clock
        self.signer = signer
        self.samlPage = samlPage
        self.state = Mutex(state)
    }

    func handle(_ recorded: InMemoryHTTPTransport.RecordedRequest) -> HTTPTransportResponse {
        let full = recorded.request.path ?? "/"
        let parts = full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let query = parts.count > 1 ? String(parts[1]) : ""
        state.withLock { $0.requestCounts[path, default: 0] += 1 }
        guard "\(recorded.request.scheme ?? "")://\(recorded.request.authority ?? "")" == issuer else {
            return Page.status(404)
        }
        let request = ProviderRequest(recorded: recorded, query: query)
        switch (recorded.request.method, path) {
        case (.get, "/.well-known/openid-configuration"): return Page.json(discovery)
        case (.get, "/jwks"): return Page.json(TestTokenSigner.jwks([signer]))
        case (.get, "/authorize"): return authorize(request)
        case (.post, "/login"): return login(request, then: "/authorize")
        case (.post, "/token"): return token(request)
        case (.post, "/revoke"): return revoke(request)
        case (.get, "/saml/sso"): return samlSSO(request)
        case (.post, "/saml/login"): return login(request, then: "/saml/sso")
        default: return Page.status(404)
        }
    }

    private var discovery: String {
        #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","#
            + #""jwks_uri":"\#(issuer)/jwks","revocation_endpoint":"\#(issuer)/revoke","#
            + #""response_types_supported":["code"],"subject_types_supported":["public"],"#
            + #""id_token_signing_alg_values_supported":["ES256"],"code_challenge_methods_supported":["S256"]}"#
    }

    /// Whether the request carries a live session cookie.
    private func hasSession(_ request: ProviderRequest) -> Bool {
        guard let id = request.cookie("idp_session") else { return false }
        let now = clock.now
        return state.withLock { state in state.sessions[id].map { $0 > now } ?? false }
    }

    private func authorize(_ request: ProviderRequest) -> HTTPTransportResponse {
        let query = request.queryParameters
        guard query["client_id"] == clientID, let redirectURI = query["redirect_uri"], query["response_type"] == "code",
            let challenge = query["code_challenge"], query["code_challenge_method"] == "S256"
        else { return Page.status(400) }
        guard hasSession(request) else { return Page.login(action: "/login?" + request.query) }
        let code = RandomText.make()
        state.withLock {
            $0.codes[code] = ProviderState.CodeGrant(
                redirectURI: redirectURI, challenge: challenge, nonce: query["nonce"])
        }
        var callback = [("code", code), ("iss", issuer)]
        if let state = query["state"] { callback.append(("state", state)) }
        return Page.redirect(redirectURI + (redirectURI.contains("?") ? "&" : "?") + FormURLEncoding.encode(callback))
    }

    /// The login form posted: a matching CSRF cookie and field, then the user's name and password. Success sets
    /// the session cookie and sends the browser back to `then` with the original query.
    private func login(_ request: ProviderRequest, then target: String) -> HTTPTransportResponse {
        let form = request.form
        guard let csrf = form["csrf"], request.cookie("login_csrf") == csrf else { return Page.status(403) }
        guard form["username"] == username, form["password"] == password else {
            return Page.login(
                action: (target == "/authorize" ? "/login?" : "/saml/login?") + request.query, failed: true)
        }
        let id = RandomText.make()
        let expiry = state.withLock { state in
            let expiry = clock.now.addingTimeInterval(state.sessionLifetime)
            state.sessions[id] = expiry
            return expiry
        }
        var response = Page.redirect(issuer + target + "?" + request.query)
        response.response.headerFields.append(
            HTTPField(
                name: .setCookie,
                value:
                    "idp_session=\(id); Path=/; Secure; HttpOnly; Max-Age=\(Int(expiry.timeIntervalSince(clock.now)))"))
        return response
    }

    private func token(_ request: ProviderRequest) -> HTTPTransportResponse {
        guard let credentials = request.basicCredentials, credentials == (clientID, clientSecret) else {
            return Page.json(#"{"error":"invalid_client"}"#, status: 401)
        }
        let form = request.form
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let grant = state.withLock({ $0.codes.removeValue(forKey: code) }),
                grant.redirectURI == form["redirect_uri"], let verifier = form["code_verifier"],
                Base64URL.encode(SHA256.hash(data: Array(verifier.utf8))) == grant.challenge
            else { return Page.json(#"{"error":"invalid_grant"}"#, status: 400) }
            return tokens(nonce: grant.nonce, refreshToken: nil)
        case "refresh_token":
            guard let refreshToken = form["refresh_token"],
                state.withLock({ $0.refreshTokens[refreshToken] }) != nil
            else { return Page.json(#"{"error":"invalid_grant"}"#, status: 400) }
            return tokens(nonce: nil, refreshToken: refreshToken)
        default:
            return Page.json(#"{"error":"unsupported_grant_type"}"#, status: 400)
        }
    }

    /// A token response: a new access token; a new refresh token and ID token after a code, none after a refresh.
    private func tokens(nonce: String?, refreshToken: String?) -> HTTPTransportResponse {
        let (number, lifetime) = state.withLock { state in
            state.counter += 1
            return (state.counter, state.accessTokenLifetime)
        }
        var members = [
            #""access_token":"at-\#(number)-\#(RandomText.make())""#, #""token_type":"Bearer""#,
            #""expires_in":\#(Int(lifetime))"#,
        ]
        if refreshToken == nil {
            let issued = "rt-\(number)-\(RandomText.make())"
            state.withLock { $0.refreshTokens[issued] = username }
            members.append(#""refresh_token":"\#(issued)""#)
            guard let idToken = try? idToken(nonce: nonce, audience: nil) else { return Page.status(500) }
            members.append(#""id_token":"\#(idToken)""#)
        }
        return Page.json("{" + members.joined(separator: ",") + "}")
    }

    func idToken(nonce: String?, audience: String?) throws -> String {
        let now = Int64(clock.now.timeIntervalSince1970)
        return try signer.sign(
            claims: TestTokenSigner.claims(
                issuer: issuer, clientID: audience ?? clientID, now: now + 10, subject: username, nonce: nonce))
    }

    private func revoke(_ request: ProviderRequest) -> HTTPTransportResponse {
        if let token = request.form["token"] { _ = state.withLock { $0.refreshTokens.removeValue(forKey: token) } }
        return Page.json("{}")
    }

    private func samlSSO(_ request: ProviderRequest) -> HTTPTransportResponse {
        guard let samlPage, request.queryParameters["SAMLRequest"] != nil else { return Page.status(400) }
        guard hasSession(request) else { return Page.login(action: "/saml/login?" + request.query) }
        let relayState =
            request.queryParameters["RelayState"].map {
                #"<input type="hidden" name="RelayState" value="\#($0)">"#
            } ?? ""
        return Page.html(
            #"<html><body onload="document.forms[0].submit()"><form method="post" action="\#(samlPage.acs)">"#
                + #"<input type="hidden" name="SAMLResponse" value="\#(samlPage.response)">\#(relayState)"#
                + "<noscript><button>Continue</button></noscript></form></body></html>")
    }
}

/// The mutable state of an ``InMemoryIdentityProvider``.
struct ProviderState: Sendable {
    var accessTokenLifetime: TimeInterval
    var sessionLifetime: TimeInterval
    var sessions: [String: Date] = [:]
    var codes: [String: CodeGrant] = [:]
    var refreshTokens: [String: String] = [:]
    var counter = 0
    var requestCounts: [String: Int] = [:]

    /// An authorization code's request: where it may be redeemed, its PKCE challenge and nonce.
    struct CodeGrant: Sendable {
        var redirectURI: String
        var challenge: String
        var nonce: String?
    }
}

/// What the routes read from a request.
struct ProviderRequest {
    let recorded: InMemoryHTTPTransport.RecordedRequest
    let query: String

    var queryParameters: [String: String] {
        Dictionary((FormURLEncoding.decode(query) ?? []), uniquingKeysWith: { first, _ in first })
    }

    var form: [String: String] { recorded.formParameters }

    func cookie(_ name: String) -> String? {
        for field in recorded.request.headerFields[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name { return String(parts[1]) }
            }
        }
        return nil
    }

    var basicCredentials: (String, String)? {
        guard let header = recorded.request.headerFields[.authorization], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":"),
            let id = FormURLEncoding.unescape(text[..<colon]),
            let secret = FormURLEncoding.unescape(text[text.index(after: colon)...])
        else { return nil }
        return (id, secret)
    }
}

/// The responses the provider's routes give.
enum Page {
    static func status(_ code: Int) -> HTTPTransportResponse {
        HTTPTransportResponse(response: HTTPResponse(status: .init(code: code)), body: [])
    }

    static func json(_ text: String, status: Int = 200) -> HTTPTransportResponse {
        .json(text, status: .init(code: status))
    }

    static func html(_ text: String) -> HTTPTransportResponse {
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "text/html; charset=utf-8"
        return HTTPTransportResponse(response: response, body: Array(text.utf8))
    }

    static func redirect(_ location: String) -> HTTPTransportResponse {
        var response = HTTPResponse(status: .found)
        response.headerFields[.location] = location
        return HTTPTransportResponse(response: response, body: [])
    }

    /// The login page, with a fresh CSRF value in a cookie and a hidden field.
    static func login(action: String, failed: Bool = false) -> HTTPTransportResponse {
        let csrf = RandomText.make()
        var response = html(
            "<html><head><title>Sign in</title><script>var x = '<form method=post><input type=password name=p>';</script>"
                + "</head><body>" + (failed ? "<p>Wrong user name or password.</p>" : "")
                + #"<form method="get" action="/search"><input type="text" name="q"></form>"#
                + #"<form method="post" action="\#(action)"><input type="hidden" name="csrf" value="\#(csrf)">"#
                + #"<input type="text" name="username"><input type="password" name="password">"#
                + #"<input type="checkbox" name="remember" value="yes" checked>"#
                + #"<button type="submit" name="action" value="login">Sign in</button></form></body></html>"#)
        response.response.headerFields.append(
            HTTPField(name: .setCookie, value: "login_csrf=\(csrf); Path=/; Secure; HttpOnly"))
        return response
    }
}

/// Random URL-safe text for codes, tokens and session IDs.
enum RandomText {
    static func make() -> String {
        Base64URL.encode(SecureRandom.bytes(16))
    }
}
