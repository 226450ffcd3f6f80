import SSOKitCore

/// The protected header of a compact JWS, as far as verification needs it.
///
/// `jwk`, `jku`, `x5u` and `x5c` are deliberately not read: keys come only from the configured key set
/// (the CVE-2018-0114 class of attacks puts the attacker's key in the header).
struct JWSHeader: Sendable {
    let algorithmName: String
    let keyID: String?
    let hasCriticalParameters: Bool

    init(json: JSONValue) throws(OIDCError) {
        guard case .object(let members) = json else {
            throw OIDCError(.malformedToken, "the JWS header is not a JSON object")
        }
        guard let algorithm = members["alg"]?.stringValue else {
            throw OIDCError(.malformedToken, "the JWS header has no \"alg\" string")
        }
        self.algorithmName = algorithm
        switch members["kid"] {
        case nil: self.keyID = nil
        case .string(let kid)?: self.keyID = kid
        default: throw OIDCError(.malformedToken, "the JWS header's \"kid\" is not a string")
        }
        // RFC 7515 §4.1.11: SSOKit implements no JWS extension, so any `crit` (valid or not) is refused.
        self.hasCriticalParameters = members["crit"] != nil
    }
}
