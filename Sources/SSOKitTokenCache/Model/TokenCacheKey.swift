/// What a cache entry belongs to: the calling app, the IdP (OIDC issuer or SAML entity ID), the client (OIDC client
/// ID or SAML SP entity ID) and the normalized scope set.
public struct TokenCacheKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The calling app's identifier (e.g. its bundle ID). Entries of one app are invisible to every other.
    public let application: String
    /// The OIDC issuer or the SAML IdP entity ID.
    public let issuer: String
    /// The OIDC client ID or the SAML SP entity ID.
    public let clientID: String
    /// The scopes, deduplicated and sorted, so that `"openid email"` and `"email openid"` are one entry.
    public let scopes: [String]

    /// Creates a key; the scopes are normalized.
    public init(application: String, issuer: String, clientID: String, scopes: some Sequence<String> = []) {
        self.application = application
        self.issuer = issuer
        self.clientID = clientID
        let given = Array(scopes)
        // Already normalized (non-empty, strictly ascending): kept as is, without hashing every scope again.
        let normalized = zip(given, given.dropFirst()).allSatisfy { $0 < $1 } && !(given.first?.isEmpty ?? false)
        self.scopes = normalized ? given : Array(Set(given.filter { !$0.isEmpty })).sorted()
    }

    /// The key as one string: each field length-prefixed, so no choice of field values can collide with another.
    public var canonical: String {
        [application, issuer, clientID, scopes.joined(separator: " ")].map { "\($0.utf8.count):\($0)" }
            .joined(separator: "|")
    }

    /// Parses ``canonical`` back; nil when malformed.
    public init?(canonical: String) {
        var fields: [String] = []
        var rest = Substring(canonical)
        for index in 0..<4 {
            guard let colon = rest.firstIndex(of: ":"), let length = Int(rest[..<colon]), length >= 0 else {
                return nil
            }
            let utf8 = rest[rest.index(after: colon)...].utf8
            guard utf8.count >= length else { return nil }
            let end = utf8.index(utf8.startIndex, offsetBy: length)
            guard let value = String(utf8[utf8.startIndex..<end]) else { return nil }
            fields.append(value)
            rest = Substring(utf8[end...])
            if index < 3 {
                guard rest.first == "|" else { return nil }
                rest = rest.dropFirst()
            }
        }
        guard rest.isEmpty else { return nil }
        self.init(
            application: fields[0], issuer: fields[1], clientID: fields[2],
            scopes: fields[3].split(separator: " ").map(String.init))
    }

    /// `app / issuer / client [scopes]`, without secrets.
    public var description: String { "\(application) / \(issuer) / \(clientID) [\(scopes.joined(separator: " "))]" }
}
