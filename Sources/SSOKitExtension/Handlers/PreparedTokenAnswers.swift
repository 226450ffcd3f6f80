import HTTPTypes
import SSOKitTokenCache
import Synchronization

/// The parts of a native answer that depend only on an app's tokens (the checked header fields and the JSON body
/// without `expires_in`), built once per token set and reused while the cache hands back the same tokens: a cache
/// hit then costs no token scan, no header validation and no JSON escaping.
///
/// One per OIDC payload, by calling app; bounded (cleared when full). It holds only what the token cache's memory
/// already holds.
final class PreparedTokenAnswers: Sendable {
    static let capacity = 10_000
    private let prepared = Mutex<[String: PreparedTokenAnswer]>([:])

    /// The prepared answer for `tokens` of `application`, reused when the tokens are the ones prepared last.
    func answer(for tokens: CachedTokens, application: String) throws(AuthorizationFailure) -> PreparedTokenAnswer {
        if let known = prepared.withLock({ $0[application] }), known.matches(tokens) { return known }
        let fresh = try PreparedTokenAnswer(tokens)
        prepared.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[application] = fresh
        }
        return fresh
    }
}

/// One token set's checked header fields and JSON body prefix.
final class PreparedTokenAnswer: Sendable {
    let accessToken: String
    let idToken: String?
    let tokenType: String
    /// `access_token`, `id_token`, `token_type`.
    let fields: [HTTPField]
    /// `Authorization: Bearer <access token>`, the whole answer to a Bearer challenge.
    let authorization: HTTPFields
    /// `{"access_token":"…","id_token":"…","token_type":"…"` (open: `expires_in` and `}` follow).
    let bodyPrefix: [UInt8]
    /// The last whole answer and the `expires_in` it says: reused while that value holds (up to a second).
    private let latest = Mutex<(expiresIn: String?, response: CompactHTTPResponse)?>(nil)

    init(_ tokens: CachedTokens) throws(AuthorizationFailure) {
        accessToken = try Self.headerSafe(tokens.accessToken, "access token")
        idToken = try tokens.idToken.map { token throws(AuthorizationFailure) in try Self.headerSafe(token, "ID token")
        }
        tokenType = try Self.headerSafe(tokens.tokenType ?? "Bearer", "token type")
        var fields: [HTTPField] = []
        if let name = TokenAnswer.accessToken { fields.append(HTTPField(name: name, value: accessToken)) }
        if let idToken, let name = TokenAnswer.idToken { fields.append(HTTPField(name: name, value: idToken)) }
        if let name = TokenAnswer.tokenType { fields.append(HTTPField(name: name, value: tokenType)) }
        self.fields = fields
        var authorization = HTTPFields()
        authorization.append(HTTPField(name: .authorization, value: "Bearer " + accessToken))
        self.authorization = authorization
        var body = TokenJSON(capacity: accessToken.utf8.count + (idToken?.utf8.count ?? 0) + 96)
        body.string("access_token", accessToken)
        if let idToken { body.string("id_token", idToken) }
        body.string("token_type", tokenType)
        bodyPrefix = body.bytes
    }

    /// The 200 answer saying `expiresIn`, built once per value.
    func response(expiresIn: String?) -> CompactHTTPResponse {
        if let last = latest.withLock({ $0 }), last.expiresIn == expiresIn { return last.response }
        let response = TokenAnswer.response(self, expiresIn: expiresIn)
        latest.withLock { $0 = (expiresIn, response) }
        return response
    }

    /// Whether `tokens` are the ones this answer was prepared for.
    func matches(_ tokens: CachedTokens) -> Bool {
        tokens.accessToken == accessToken && tokens.idToken == idToken && (tokens.tokenType ?? "Bearer") == tokenType
    }

    /// A token that can stand in a header as it is: present, visible ASCII only.
    private static func headerSafe(_ token: String?, _ what: String) throws(AuthorizationFailure) -> String {
        guard var token, !token.isEmpty else {
            throw AuthorizationFailure(.failed, .idpError, "the session holds no \(what)")
        }
        let visible = token.withUTF8 { utf8 in !utf8.contains { $0 <= 0x20 || $0 >= 0x7F } }
        guard visible else {
            throw AuthorizationFailure(.failed, .idpError, "the \(what) holds characters a header cannot carry")
        }
        return token
    }
}
