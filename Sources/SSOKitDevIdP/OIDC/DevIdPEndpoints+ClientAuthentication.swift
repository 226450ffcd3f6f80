import Crypto
import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitOIDC

extension DevIdPEndpoints {
    /// The `client_assertion_type` of `private_key_jwt` (RFC 7523 §2.2).
    static let jwtBearerAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// The longest lifetime a client assertion may claim, which bounds how long its `jti` is remembered (Authlib,
    /// for one, signs assertions for an hour).
    static let maximumAssertionLifetime: TimeInterval = 3600

    /// Authenticates the client of a token or revocation request (RFC 6749 §2.3, OIDC Core §9): a public client by
    /// its `client_id` alone, a client with a secret by that secret in a Basic header or in the form (RFC 6749
    /// §2.3.1 requires Basic whatever else a client uses), a `private_key_jwt` client by an assertion only.
    /// Presenting two methods at once is `invalid_request`; anything else wrong is `invalid_client`. `endpoint` is
    /// the URL called, one of the audiences a client assertion may name.
    func authenticateClient(_ request: EndpointRequest, form: Parameters, endpoint: String) async throws(DevIdPError)
        -> OIDCClientRegistration
    {
        let basic = try Self.basicCredentials(request.headers[.authorization])
        let assertion = form["client_assertion"]
        let presented = [basic != nil, form["client_secret"] != nil, assertion != nil].filter { $0 }.count
        guard presented <= 1 else {
            throw DevIdPError(.invalidRequest, "the request uses more than one client authentication method")
        }
        let clientID: String
        let method: String
        if let basic {
            (clientID, method) = (basic.clientID, "client_secret_basic")
        } else if let assertion {
            guard form["client_assertion_type"] == Self.jwtBearerAssertionType else {
                throw DevIdPError(.invalidClient, "client_assertion_type must be \(Self.jwtBearerAssertionType)")
            }
            guard let subject = form["client_id"] ?? Self.unverifiedSubject(of: assertion) else {
                throw DevIdPError(.invalidClient, "the client assertion names no client")
            }
            (clientID, method) = (subject, "private_key_jwt")
        } else {
            guard let named = form["client_id"] else {
                throw DevIdPError(.invalidClient, "the request names no client")
            }
            (clientID, method) = (named, form["client_secret"] == nil ? "none" : "client_secret_post")
        }
        if let named = form["client_id"], named != clientID {
            throw DevIdPError(.invalidClient, "client_id differs from the authenticated client")
        }
        guard let client = clients[clientID] else {
            throw DevIdPError(.invalidClient, "the client is not registered")
        }
        let refusal = DevIdPError(
            .invalidClient, "this client must authenticate with \(client.authentication.name), not \(method)")
        switch client.authentication {
        case .none:
            guard method == "none" else { throw refusal }
        case .clientSecretBasic(let secret), .clientSecretPost(let secret):
            guard method == "client_secret_basic" || method == "client_secret_post" else { throw refusal }
            guard Self.secretsMatch(basic?.secret ?? form["client_secret"], secret) else {
                throw DevIdPError(.invalidClient, "the client secret is wrong")
            }
        case .privateKeyJWT(let keys):
            guard method == "private_key_jwt" else { throw refusal }
            try await verifyClientAssertion(assertion ?? "", client: client, keys: keys, endpoint: endpoint)
        }
        return client
    }

    /// Verifies a `private_key_jwt` assertion (RFC 7523 §3) with SSOKit's own JWS verifier and the client's keys:
    /// `iss` and `sub` are the client, `aud` names this IdP (issuer, token endpoint or the endpoint called), `exp`
    /// is at most 10 minutes away, and its `jti` has not been used.
    private func verifyClientAssertion(
        _ assertion: String, client: OIDCClientRegistration, keys: JSONWebKeySet, endpoint: String
    ) async throws(DevIdPError) {
        let audiences: Set = [site.issuer, site.token, endpoint]
        let clientID = client.clientID
        // RFC 7523 §3: `iss` and `sub` are the client. The verifier's own issuer is this IdP (an ID-token issuer
        // must be a URL), so the issuer rule is the check below rather than the standard one.
        let issuerIsClient = IDTokenCheck(name: "issuer") { claims, _ throws(OIDCError) in
            guard claims.issuer == clientID else {
                throw OIDCError(.issuerMismatch, "iss is not the client")
            }
        }
        let subjectIsClient = IDTokenCheck(name: "subject") { claims, _ throws(OIDCError) in
            guard claims.subject == claims.issuer else { throw OIDCError(.invalidClaim, "sub differs from iss") }
        }
        let audienceIsServer = IDTokenCheck(name: "audience") { claims, _ throws(OIDCError) in
            guard claims.audience.contains(where: audiences.contains) else {
                throw OIDCError(.audienceMismatch, "the assertion is not addressed to this IdP")
            }
        }
        let verifier = IDTokenVerifier(
            configuration: .init(
                issuer: site.issuer, clientID: client.clientID,
                checks: [issuerIsClient, subjectIsClient, audienceIsServer, .expiry, .notBefore, .issuedAt]),
            keys: StaticKeySource(keys), clock: configuration.clock)
        let claims: IDTokenClaims
        do {
            claims = try await verifier.verify(assertion)
        } catch {
            throw DevIdPError(.invalidClient, "the client assertion is not valid (\(error.code))")
        }
        let expiry = claims.expiresAt.date
        guard expiry.timeIntervalSince(now) <= Self.maximumAssertionLifetime else {
            throw DevIdPError(.invalidClient, "the client assertion lives longer than an hour")
        }
        guard let jti = claims.all["jti"]?.stringValue, (1...256).contains(jti.utf8.count) else {
            throw DevIdPError(.invalidClient, "the client assertion has no jti")
        }
        guard
            await stores.oneTimeValues.firstUse(
                "jti \(client.clientID) \(jti)", until: expiry.addingTimeInterval(60), now: now)
        else { throw DevIdPError(.invalidClient, "the client assertion was used before") }
    }

    /// The client ID and secret of an `Authorization: Basic` header, each form-decoded (RFC 6749 §2.3.1).
    static func basicCredentials(_ header: String?) throws(DevIdPError) -> (clientID: String, secret: String)? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else {
            throw DevIdPError(.invalidClient, "the Authorization header is not Basic")
        }
        guard let data = Data(base64Encoded: String(parts[1])), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"), let clientID = FormURLEncoding.unescape(text[..<colon]),
            let secret = FormURLEncoding.unescape(text[text.index(after: colon)...])
        else { throw DevIdPError(.invalidClient, "the Basic credentials are malformed") }
        return (clientID, secret)
    }

    /// Compares the SHA-256 of two secrets in constant time, so neither content nor length leaks.
    static func secretsMatch(_ presented: String?, _ registered: String) -> Bool {
        guard let presented else { return false }
        return ConstantTime.equals(
            Array(SHA256.hash(data: Array(presented.utf8))), Array(SHA256.hash(data: Array(registered.utf8))))
    }

    /// The `sub` of an assertion before it is verified, only to find whose keys verify it.
    private static func unverifiedSubject(of assertion: String) -> String? {
        let segments = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard assertion.utf8.count <= 16 * 1024, segments.count == 3,
            let payload = Base64URL.decode(String(segments[1])),
            let claims = try? JSONParser().parse(payload)
        else { return nil }
        return claims["sub"]?.stringValue
    }
}
