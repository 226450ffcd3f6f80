import Foundation

/// One SAML attribute with every value, in document order.
public struct SAMLAttribute: Sendable, Hashable {
    /// The `Name`.
    public var name: String
    /// The `NameFormat`, if given.
    public var nameFormat: String?
    /// The `FriendlyName`, if given.
    public var friendlyName: String?
    /// Each `AttributeValue`'s full text content.
    public var values: [String]

    /// Creates an attribute.
    public init(name: String, nameFormat: String? = nil, friendlyName: String? = nil, values: [String]) {
        self.name = name
        self.nameFormat = nameFormat
        self.friendlyName = friendlyName
        self.values = values
    }
}

/// What a verified SAML Response asserts: the data of the one assertion that a valid signature covers.
public struct SAMLAssertion: Sendable, Hashable {
    /// The assertion's Issuer (the IdP's entity ID).
    public var issuer: String
    /// The Subject's NameID, its full text content.
    public var nameID: String
    /// The NameID's `Format`, if given.
    public var nameIDFormat: String?
    /// The NameID's `SPNameQualifier`, if given.
    public var nameIDSPNameQualifier: String?
    /// The AuthnStatement's `SessionIndex`, if given.
    public var sessionIndex: String?
    /// The AuthnStatement's `AuthnInstant`.
    public var authnInstant: Date?
    /// The AuthnStatement's `SessionNotOnOrAfter`, if given.
    public var sessionNotOnOrAfter: Date?
    /// The assertion's `ID` (the replay key).
    public var assertionID: String
    /// The Response's `ID`.
    public var responseID: String
    /// The Response's `InResponseTo`, if any.
    public var inResponseTo: String?
    /// Attributes in document order.
    public var attributes: [SAMLAttribute]
    /// The accepted bearer SubjectConfirmationData's `NotOnOrAfter` (which SAML Profiles §4.1.4.2 requires): the time
    /// after which the assertion must no longer be delivered, and until which its ID is kept against replay.
    public var notOnOrAfter: Date?
    /// Whether a valid signature covered the Response element itself.
    public var responseWasSigned: Bool
    /// Whether the Assertion element carried its own valid signature.
    public var assertionWasSigned: Bool

    /// Every value of the attributes named `name` (Name or FriendlyName), in order.
    public func values(of name: String) -> [String] {
        attributes.filter { $0.name == name || $0.friendlyName == name }.flatMap(\.values)
    }

    /// Attributes by Name, values concatenated when a name repeats.
    public var attributeValues: [String: [String]] {
        var result: [String: [String]] = [:]
        for attribute in attributes { result[attribute.name, default: []].append(contentsOf: attribute.values) }
        return result
    }
}
