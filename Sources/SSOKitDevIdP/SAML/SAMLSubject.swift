import SSOKitCore
import SSOKitOIDC

/// What an assertion says about the user: the NameID in the requested format and the attributes.
struct SAMLSubject: Sendable {
    struct Attribute: Sendable {
        let name: String
        let friendlyName: String
        let values: [String]
    }

    let nameID: String
    let nameIDFormat: String
    let attributes: [Attribute]

    /// Claims that become attributes: named by OID in the `uri` format, with their LDAP names as FriendlyName.
    static let attributeNames: [(claim: String, oid: String, friendlyName: String)] = [
        ("email", "urn:oid:0.9.2342.19200300.100.1.3", "mail"),
        ("name", "urn:oid:2.16.840.1.113730.3.1.241", "displayName"),
        ("given_name", "urn:oid:2.5.4.42", "givenName"),
        ("family_name", "urn:oid:2.5.4.4", "sn"),
        ("groups", "urn:oid:1.3.6.1.4.1.5923.1.5.1.1", "isMemberOf"),
    ]

    /// The subject of `user` with a NameID in `requestedFormat` (nil or unspecified: the email address when there
    /// is one, else the username); nil when the user has nothing in that format (InvalidNameIDPolicy).
    init?(user: DevIdPUser, requestedFormat: String?) {
        let email = user.claims["email"]?.stringValue
        switch requestedFormat ?? SAMLNames.NameIDFormat.unspecified {
        case SAMLNames.NameIDFormat.unspecified:
            (nameID, nameIDFormat) =
                email.map { ($0, SAMLNames.NameIDFormat.emailAddress) }
                ?? (user.username, SAMLNames.NameIDFormat.unspecified)
        case SAMLNames.NameIDFormat.emailAddress:
            guard let email else { return nil }
            (nameID, nameIDFormat) = (email, SAMLNames.NameIDFormat.emailAddress)
        case SAMLNames.NameIDFormat.persistent:
            (nameID, nameIDFormat) = (user.subject, SAMLNames.NameIDFormat.persistent)
        case SAMLNames.NameIDFormat.transient:
            (nameID, nameIDFormat) = ("_" + SecretKey.make(), SAMLNames.NameIDFormat.transient)
        default:
            return nil
        }
        var attributes = [
            Attribute(name: "urn:oid:0.9.2342.19200300.100.1.1", friendlyName: "uid", values: [user.username])
        ]
        for (claim, oid, friendlyName) in Self.attributeNames {
            let values = Self.texts(user.claims[claim])
            if !values.isEmpty { attributes.append(Attribute(name: oid, friendlyName: friendlyName, values: values)) }
        }
        self.attributes = attributes
    }

    /// A claim's value as attribute values: strings as they are, a list element by element, others as JSON text.
    private static func texts(_ value: JSONValue?) -> [String] {
        switch value {
        case nil, .null?: return []
        case .string(let text)?: return [text]
        case .array(let elements)?: return elements.flatMap { texts($0) }
        case let other?: return [other.jsonText]
        }
    }
}
