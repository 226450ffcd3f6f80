import SSOKitCore
import SSOKitOIDC
import SSOKitSAML
import SSOKitTokenCache

extension SAMLAssertion {
    /// The object `ssokit saml verify` prints, and the body of the adapter's answer to a SAML `login`
    /// (CLI-CONTRACT.md): issuer, name_id, name_id_format, session_index, assertion_id, attributes by Name,
    /// not_on_or_after.
    public var jsonObject: [String: JSONValue] {
        var attributes: [String: JSONValue] = [:]
        for (name, values) in attributeValues { attributes[name] = .array(values.map { .string($0) }) }
        return [
            "issuer": .string(issuer),
            "name_id": .string(nameID),
            "name_id_format": nameIDFormat.map { .string($0) } ?? .null,
            "session_index": sessionIndex.map { .string($0) } ?? .null,
            "assertion_id": .string(assertionID),
            "attributes": .object(attributes),
            "not_on_or_after": notOnOrAfter.map { .string(SAMLDateTime.format($0)) } ?? .null,
        ]
    }

    /// The session the app keeps: the subject and attributes, until the session ends (SessionNotOnOrAfter, else
    /// the assertion's NotOnOrAfter).
    var sessionRecord: SAMLSessionRecord {
        SAMLSessionRecord(
            nameID: nameID, nameIDFormat: nameIDFormat, sessionIndex: sessionIndex,
            notOnOrAfter: sessionNotOnOrAfter ?? notOnOrAfter, attributes: attributeValues, assertionID: assertionID)
    }
}

extension SAMLSessionRecord {
    /// The same shape as ``SAMLAssertion/jsonObject`` for a session read back from the cache.
    func jsonObject(issuer: String) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for (name, list) in attributes { values[name] = .array(list.map { .string($0) }) }
        return [
            "issuer": .string(issuer),
            "name_id": .string(nameID),
            "name_id_format": nameIDFormat.map { .string($0) } ?? .null,
            "session_index": sessionIndex.map { .string($0) } ?? .null,
            "assertion_id": assertionID.map { .string($0) } ?? .null,
            "attributes": .object(values),
            "not_on_or_after": notOnOrAfter.map { .string(SAMLDateTime.format($0)) } ?? .null,
        ]
    }
}
