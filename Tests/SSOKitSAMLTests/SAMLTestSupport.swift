import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitSAML

/// Shared access to `fixtures/saml` for the SAML unit tests.
enum SAMLTestSupport {
    static var folder: URL {
        get throws {
            guard let root = FixtureLoader.fixturesDirectory() else { throw CocoaError(.fileNoSuchFile) }
            return root.appendingPathComponent("saml")
        }
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(path)))
    }

    static func certificate(_ name: String) throws -> SAMLCertificate {
        try SAMLCertificate(pem: text("keys/\(name).crt"))
    }

    static func privateKey(_ name: String, withCertificate: Bool = true) throws -> SAMLPrivateKey {
        try SAMLPrivateKey(
            pem: text("keys/\(name).key"), certificatePEM: withCertificate ? text("keys/\(name).crt") : nil)
    }

    /// The verifier configured as the fixture case `name` configures it, and the case's solicitation.
    static func verifier(
        forCase name: String, replayGuard: (any SAMLAssertionReplayGuard)? = nil,
        adjusting adjust: (inout SAMLResponseVerifier.Configuration) -> Void = { _ in }
    ) throws -> (SAMLResponseVerifier, SAMLResponseVerifier.Solicitation, [UInt8]) {
        let object = try JSONSerialization.jsonObject(with: Data(bytes("cases/\(name).json"))) as? [String: Any] ?? [:]
        let certificates = try (object["idp_certs"] as? [String] ?? []).map { try SAMLCertificate(pem: text($0)) }
        var configuration = SAMLResponseVerifier.Configuration(
            serviceProviderEntityID: object["sp_entity_id"] as? String ?? "",
            assertionConsumerServiceURL: object["acs_url"] as? String ?? "",
            identityProviderEntityID: object["idp_entity_id"] as? String ?? "",
            identityProviderCertificates: certificates,
            signaturePolicy: (object["signature_policy"] as? String).flatMap(SAMLSignaturePolicy.init)
                ?? .assertionCovered,
            insecureSkipIssuerCheck: object["idp_entity_id"] == nil,
            decryptionKey: try (object["sp_key"] as? String).map { try SAMLPrivateKey(pem: text($0)) })
        adjust(&configuration)
        let now = SAMLDateTime.parse(object["now"] as? String ?? "") ?? Date()
        let solicitation: SAMLResponseVerifier.Solicitation =
            (object["request_id"] as? String).map { .request(id: $0) } ?? .unsolicited
        let verifier = SAMLResponseVerifier(
            configuration: configuration, clock: FixedClock(now), replayGuard: replayGuard)
        return (verifier, solicitation, try bytes(object["response"] as? String ?? ""))
    }
}
