import Foundation
import HTTPTypes
import SSOKitCore

extension DevIdPEndpoints {
    /// `GET|POST /authorize` (OIDC Core §3.1.2): the authorization code flow with PKCE S256 required.
    ///
    /// An unknown client or unregistered redirect URI gets an error page, never a redirect (RFC 6749 §4.1.2.1);
    /// every other refusal is redirected to the client with `error`, `state` and `iss` (RFC 9207).
    func authorize(_ request: EndpointRequest) async -> EndpointResponse {
        let parameters: Parameters
        do {
            parameters = try request.parameters()
        } catch {
            return errorPage(error)
        }
        guard let clientID = parameters["client_id"], let client = clients[clientID] else {
            return errorPage(DevIdPError(.unknownClient, "the client_id names no registered client"))
        }
        guard let redirectURI = parameters["redirect_uri"],
            RegisteredURLMatching.matches(redirectURI, anyOf: client.redirectURIs)
        else {
            return errorPage(DevIdPError(.invalidRedirectURI, "the redirect_uri is not registered for this client"))
        }
        let state = parameters["state"]
        guard (state?.utf8.count ?? 0) <= 2048 else {
            return errorPage(DevIdPError(.invalidRequest, "state is longer than 2048 bytes"))
        }
        let authorization: OIDCAuthorization
        do {
            authorization = try Self.authorization(
                parameters, client: client, redirectURI: redirectURI, state: state)
        } catch {
            return authorizationError(error, redirectURI: redirectURI, state: state, afterPOST: request.method == .post)
        }
        return await continueAuthorization(authorization, request: request)
    }

    /// Answers from the browser's session when it may, else asks the user to sign in.
    func continueAuthorization(_ authorization: OIDCAuthorization, request: EndpointRequest) async -> EndpointResponse {
        let afterPOST = request.method == .post
        if let session = await stores.sessions.session(cookie: request.cookie(IdPCookies.session), now: now),
            !authorization.prompt.contains("login"),
            authorization.maxAge.map({ now.timeIntervalSince(session.authTime) <= TimeInterval($0) }) ?? true
        {
            return await issueCode(authorization, session: session, afterPOST: afterPOST)
        }
        if authorization.prompt.contains("none") {
            return authorizationError(
                DevIdPError(.loginRequired, "the user is not signed in and prompt=none forbids asking"),
                redirectURI: authorization.redirectURI, state: authorization.state, afterPOST: afterPOST)
        }
        return await beginLogin(.oidcLogin(authorization), audience: authorization.clientID)
    }

    /// Issues a code and redirects to the client with `code`, `state` and `iss` (RFC 6749 §4.1.2, RFC 9207 §2).
    func issueCode(_ authorization: OIDCAuthorization, session: UserSession, afterPOST: Bool) async -> EndpointResponse
    {
        guard
            let code = await stores.codes.issue(
                CodeGrant(authorization: authorization, session: session), now: now,
                lifetime: lifetimes.authorizationCode)
        else {
            return authorizationError(
                DevIdPError(.serverError, "too many codes are outstanding"), redirectURI: authorization.redirectURI,
                state: authorization.state, afterPOST: afterPOST)
        }
        var pairs = [("code", code)]
        if let state = authorization.state { pairs.append(("state", state)) }
        pairs.append(("iss", site.issuer))
        return .redirect(to: Self.url(authorization.redirectURI, adding: pairs), afterPOST: afterPOST)
    }

    /// An error redirected to the client (RFC 6749 §4.1.2.1, RFC 9207 §2).
    func authorizationError(_ error: DevIdPError, redirectURI: String, state: String?, afterPOST: Bool)
        -> EndpointResponse
    {
        var pairs = [("error", error.code.description), ("error_description", error.reason)]
        if let state { pairs.append(("state", state)) }
        pairs.append(("iss", site.issuer))
        return .redirect(to: Self.url(redirectURI, adding: pairs), afterPOST: afterPOST)
    }

    /// `uri` with `pairs` appended to its query (form-encoded), keeping any query it has (RFC 6749 §3.1.2).
    static func url(_ uri: String, adding pairs: [(String, String)]) -> String {
        let query = FormURLEncoding.encode(pairs)
        return uri + (uri.contains("?") ? "&" : "?") + query
    }

    /// Checks every parameter but the client and redirect URI, which the caller checked.
    static func authorization(
        _ parameters: Parameters, client: OIDCClientRegistration, redirectURI: String, state: String?
    ) throws(DevIdPError) -> OIDCAuthorization {
        if parameters["request"] != nil {
            throw DevIdPError(.requestNotSupported, "request objects are not supported")
        }
        if parameters["request_uri"] != nil {
            throw DevIdPError(.requestURINotSupported, "request_uri is not supported")
        }
        guard let responseType = parameters["response_type"] else {
            throw DevIdPError(.invalidRequest, "response_type is missing")
        }
        guard responseType == "code" else {
            throw DevIdPError(.unsupportedResponseType, "only response_type=code is supported")
        }
        if let mode = parameters["response_mode"], mode != "query" {
            throw DevIdPError(.invalidRequest, "only response_mode=query is supported")
        }
        let scopes = try scopeList(parameters["scope"], allowed: client.allowedScopes)
        guard scopes.contains("openid") else { throw DevIdPError(.invalidScope, "the scope must include openid") }
        guard let challenge = parameters["code_challenge"] else {
            throw DevIdPError(.invalidRequest, "PKCE is required: code_challenge is missing")
        }
        guard parameters["code_challenge_method"] == "S256" else {
            throw DevIdPError(.invalidRequest, "PKCE requires code_challenge_method=S256")
        }
        // RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters.
        guard challenge.utf8.count == 43, Base64URL.decode(challenge)?.count == 32 else {
            throw DevIdPError(.invalidRequest, "the code_challenge is not an S256 challenge")
        }
        let prompt = Set((parameters["prompt"] ?? "").split(separator: " ").map(String.init))
        guard prompt.isSubset(of: ["none", "login", "consent", "select_account"]),
            !prompt.contains("none") || prompt.count == 1
        else { throw DevIdPError(.invalidRequest, "prompt holds an unknown value or combines none with others") }
        var maxAge: Int?
        if let text = parameters["max_age"] {
            guard let value = Int(text), value >= 0 else {
                throw DevIdPError(.invalidRequest, "max_age is not a number of seconds")
            }
            maxAge = value
        }
        let nonce = parameters["nonce"]
        guard (nonce?.utf8.count ?? 0) <= 2048 else { throw DevIdPError(.invalidRequest, "nonce is too long") }
        return OIDCAuthorization(
            clientID: client.clientID, redirectURI: redirectURI, scopes: scopes, state: state, nonce: nonce,
            codeChallenge: challenge, prompt: prompt, maxAge: maxAge)
    }

    /// The scopes of a `scope` parameter, each one allowed; `invalid_scope` otherwise.
    static func scopeList(_ text: String?, allowed: Set<String>) throws(DevIdPError) -> [String] {
        var scopes: [String] = []
        for scope in (text ?? "").split(separator: " ").map(String.init) where !scopes.contains(scope) {
            guard allowed.contains(scope), ScopeClaims.supportedScopes.contains(scope) else {
                throw DevIdPError(.invalidScope, "a requested scope is unknown or not allowed for this client")
            }
            scopes.append(scope)
        }
        return scopes
    }
}
