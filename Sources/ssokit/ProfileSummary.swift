import SSOKitCore
import SSOKitExtension
import SSOKitOIDC

/// The JSON that `ssokit profile check` prints. Nothing here ever holds a secret from the profile.
enum ProfileSummary {
    /// `{"handled", "extension", "type"}` (CLI-CONTRACT.md).
    static func match(_ match: ProfileMatch?) -> [String: JSONValue] {
        [
            "handled": .bool(match != nil),
            "extension": match.map { .string($0.payload.extensionIdentifier) } ?? .null,
            "type": match.map { .string($0.type.name) } ?? .null,
        ]
    }

    /// The profile: its signature, each payload's routing and protocol, and the associated-domains verdicts.
    static func profile(_ profile: SSOProfile, associatedDomains: [AssociatedDomainsCheck.Result]?) -> [String:
        JSONValue]
    {
        var signer: JSONValue = .null
        if case .verified(let subject) = profile.signature { signer = .string(subject) }
        var summary: [String: JSONValue] = [
            "valid": .bool(true),
            "signature": .string(profile.signature.name),
            "signer": signer,
            "payloads": .array(profile.payloads.map { .object(payload($0)) }),
            "other_payload_types": .array(profile.otherPayloadTypes.map(JSONValue.string)),
        ]
        if let associatedDomains {
            summary["associated_domains"] = .array(
                associatedDomains.map { result in
                    .object([
                        "payload": .string(result.payload), "url": .string(result.url),
                        "app_id": result.applicationIdentifier.map(JSONValue.string) ?? .null,
                        "ok": .bool(result.passed),
                    ])
                })
        }
        return summary
    }

    private static func payload(_ payload: SSOPayload) -> [String: JSONValue] {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        var members: [String: JSONValue] = [
            "identifier": .string(payload.identifier),
            "uuid": payload.uuid.map(JSONValue.string) ?? .null,
            "extension": .string(payload.extensionIdentifier),
            "team": payload.teamIdentifier.map(JSONValue.string) ?? .null,
            "type": .string(payload.type.name),
            "urls": strings(payload.urls.map(\.url)),
            "hosts": strings(payload.hosts.map(\.entry)),
            "realm": payload.realm.map(JSONValue.string) ?? .null,
            "screen_locked_behavior": .string(payload.screenLockedBehavior.rawValue),
            "protocol": .string(payload.configuration.identityProvider.protocolName),
            "token_right": payload.configuration.tokenRight.map(JSONValue.string) ?? .null,
        ]
        switch payload.configuration.identityProvider {
        case .oidc(let oidc):
            members["issuer"] = .string(oidc.issuer)
            members["client_id"] = .string(oidc.clientID)
            members["client_auth"] = .string(oidc.clientAuthenticationMethod.rawValue)
        case .saml(let saml):
            members["idp_entity_id"] = saml.identityProviderEntityID.map(JSONValue.string) ?? .null
            members["sp_entity_id"] = .string(saml.serviceProviderEntityID)
        }
        return members
    }
}
