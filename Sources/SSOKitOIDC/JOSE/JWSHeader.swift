import SSOKitCore

/// The protected header of a compact JWS, as far as verification needs it.
///
/// `jwk`, `jku`, `x5u` and `x5c` are deliberately not read: keys come only from the configured key set
/// (the CVE-2018-0114 class of attacks puts the attacker's key in the header).
struct JWSHeader: Sendable {
    let algorithmName: String
    let keyID: String?
    let hasCriticalParameters: Bool

    /// Reads the header's members in one pass (the parser has already refused duplicate names).
    init(members: [JSONMember]) throws(OIDCError) {
        var algorithm: Int?
        var keyID: Int?
        var hasCriticalParameters = false
        for position in members.indices {
            switch Parameter(members[position]) {
            case .algorithm?: algorithm = position
            case .keyID?: keyID = position
            case .critical?: hasCriticalParameters = true
            case nil: continue
            }
        }
        guard let algorithm, case .string(let algorithmName) = members[algorithm].value else {
            throw OIDCError(.malformedToken, "the JWS header has no \"alg\" string")
        }
        self.algorithmName = algorithmName
        if let keyID {
            guard case .string(let kid) = members[keyID].value else {
                throw OIDCError(.malformedToken, "the JWS header's \"kid\" is not a string")
            }
            self.keyID = kid
        } else {
            self.keyID = nil
        }
        // RFC 7515 §4.1.11: SSOKit implements no JWS extension, so any `crit` (valid or not) is refused.
        self.hasCriticalParameters = hasCriticalParameters
    }

    /// The header parameters verification reads.
    private enum Parameter {
        case algorithm, keyID, critical

        private static let algorithmKey = JSONNameKey("alg").bits
        private static let keyIDKey = JSONNameKey("kid").bits
        private static let criticalKey = JSONNameKey("crit").bits

        /// The parameter `member` is, matched by key when the parser keyed its name, else by name; nil for others.
        init?(_ member: borrowing JSONMember) {
            let key = member.nameKey.bits
            if key != 0 {
                switch key {
                case Self.algorithmKey: self = .algorithm
                case Self.keyIDKey: self = .keyID
                case Self.criticalKey: self = .critical
                default: return nil
                }
            } else {
                switch member.name {
                case "alg": self = .algorithm
                case "kid": self = .keyID
                case "crit": self = .critical
                default: return nil
                }
            }
        }
    }
}
