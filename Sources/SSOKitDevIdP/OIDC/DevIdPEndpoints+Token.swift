import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC

extension DevIdPEndpoints {
    /// `POST /token` (RFC 6749 §3.2, OIDC Core §3.1.3): the authorization_code grant with PKCE, and the
    /// refresh_token grant with rotation. Errors are RFC 6749 §5.2 objects; `invalid_client` is a 401.
    func token(_ request: EndpointRequest) async -> EndpointResponse {
        do throws(DevIdPError) {
            let form = try request.formParameters()
            let client = try await authenticateClient(request, form: form, endpoint: site.token)
            switch form["grant_type"] {
            case "authorization_code": return try await exchangeCode(form, client: client)
            case "refresh_token": return try await refresh(form, client: client)
            case nil: throw DevIdPError(.invalidRequest, "grant_type is missing")
            default: throw DevIdPError(.unsupportedGrantType, "only authorization_code and refresh_token are supported")
            }
        } catch {
            return Self.tokenError(error, request: request)
        }
    }

    /// An RFC 6749 §5.2 error; a 401 with a `WWW-Authenticate` challenge for `invalid_client`.
    static func tokenError(_ error: DevIdPError, request: EndpointRequest) -> EndpointResponse {
        guard error.code == .invalidClient else { return .oauthError(error) }
        var response = EndpointResponse.oauthError(error, status: .unauthorized)
        if request.headers[.authorization] != nil {
            response.headers[.wwwAuthenticate] = "Basic realm=\"ssokit-dev-idp\""
        }
        return response
    }

    /// The code exchange (RFC 6749 §4.1.3, RFC 7636 §4.6). The code is spent on its first presentation, valid or
    /// not; a second presentation revokes every token the first one gave (RFC 6749 §4.1.2).
    private func exchangeCode(_ form: Parameters, client: OIDCClientRegistration) async throws(DevIdPError)
        -> EndpointResponse
    {
        let code = try form.required("code")
        let redirectURI = try form.required("redirect_uri")
        let verifier = try form.required("code_verifier")
        let tombstone = max(lifetimes.authorizationCode, 600)
        let grant: CodeGrant
        let familyID: String
        switch await stores.codes.redeem(code, now: now, tombstoneLifetime: tombstone) {
        case .unknown:
            throw DevIdPError(.invalidGrant, "the code is invalid or expired")
        case .spent(let family):
            await stores.grants.revokeFamily(family, now: now)
            throw DevIdPError(.invalidGrant, "the code was already used; the tokens it gave are revoked")
        case .granted(let redeemed, let family):
            (grant, familyID) = (redeemed, family)
        }
        let authorization = grant.authorization
        guard authorization.clientID == client.clientID else {
            throw DevIdPError(.invalidGrant, "the code was issued to another client")
        }
        guard authorization.redirectURI == redirectURI else {
            throw DevIdPError(.invalidGrant, "redirect_uri differs from the authorization request's")
        }
        do {
            try PKCE.validate(verifier: verifier, challenge: authorization.codeChallenge, method: .s256)
        } catch {
            throw DevIdPError(.invalidGrant, "the code_verifier does not match the code_challenge")
        }
        guard let user = users[grant.session.username],
            let tokens = await stores.grants.start(
                familyID: familyID, clientID: client.clientID, username: user.username,
                scopes: authorization.scopes, session: grant.session, now: now, lifetimes: lifetimes)
        else { throw DevIdPError(.invalidGrant, "the grant was revoked") }
        let idToken = try await idToken(
            for: user, clientID: client.clientID, session: grant.session, scopes: authorization.scopes,
            nonce: authorization.nonce, accessToken: tokens.accessToken)
        return tokenResponse(tokens, idToken: idToken)
    }

    /// The refresh grant (RFC 6749 §6) with rotation: the presented token is spent, and presenting it again
    /// revokes the family. The new ID token keeps `auth_time` and `sid` and has no `nonce` (OIDC Core §12.2).
    private func refresh(_ form: Parameters, client: OIDCClientRegistration) async throws(DevIdPError)
        -> EndpointResponse
    {
        let refreshToken = try form.required("refresh_token")
        let requested = try form["scope"].map { text throws(DevIdPError) in
            try Self.scopeList(text, allowed: client.allowedScopes)
        }
        switch await stores.grants.refresh(
            refreshToken, clientID: client.clientID, scopes: requested, now: now, lifetimes: lifetimes)
        {
        case .invalid:
            throw DevIdPError(.invalidGrant, "the refresh token is invalid, expired or revoked")
        case .otherClient:
            throw DevIdPError(.invalidGrant, "the refresh token was issued to another client")
        case .reused:
            throw DevIdPError(.invalidGrant, "the refresh token was already used; every token of its grant is revoked")
        case .scopeNotGranted:
            throw DevIdPError(.invalidScope, "the scope asks for more than the grant holds")
        case .rotated(let family, let tokens):
            guard let user = users[family.username] else {
                throw DevIdPError(.invalidGrant, "the user no longer exists")
            }
            let idToken = try await idToken(
                for: user, clientID: client.clientID, session: family.session, scopes: tokens.scopes, nonce: nil,
                accessToken: tokens.accessToken)
            return tokenResponse(tokens, idToken: idToken)
        }
    }

    /// A signed ID token (OIDC Core §2, §3.1.3.6): the scope's claims, `auth_time`, `sid`, `at_hash`, and `nonce`
    /// when one was sent.
    func idToken(
        for user: DevIdPUser, clientID: String, session: UserSession, scopes: [String], nonce: String?,
        accessToken: String
    ) async throws(DevIdPError) -> String {
        let issuedAt = Int64(now.timeIntervalSince1970)
        var claims = ScopeClaims.claims(of: user, scopes: scopes)
        claims["iss"] = .string(site.issuer)
        claims["aud"] = .string(clientID)
        claims["iat"] = .integer(issuedAt)
        claims["exp"] = .integer(issuedAt + Int64(lifetimes.accessToken))
        claims["auth_time"] = .integer(Int64(session.authTime.timeIntervalSince1970))
        claims["sid"] = .string(session.sid)
        claims["at_hash"] = .string(JWSAlgorithm.rs256.halfHash(of: accessToken))
        if let nonce { claims["nonce"] = .string(nonce) }
        return try await idTokens.sign(claims)
    }

    private func tokenResponse(_ tokens: IssuedTokens, idToken: String) -> EndpointResponse {
        .json([
            "access_token": .string(tokens.accessToken),
            "token_type": .string("Bearer"),
            "expires_in": .integer(Int64(tokens.accessTokenExpiresAt.timeIntervalSince(now).rounded())),
            "refresh_token": .string(tokens.refreshToken),
            "id_token": .string(idToken),
            "scope": .string(tokens.scopes.joined(separator: " ")),
        ])
    }
}
