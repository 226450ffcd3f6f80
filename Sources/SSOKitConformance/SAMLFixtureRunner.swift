import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitSAML

/// Runs the cases of `fixtures/saml/cases` through SSOKitSAML's public API and compares verdicts (the format is in
/// `fixtures/saml/README.md`).
public enum SAMLFixtureRunner {
    /// Runs every case in `fixtures/saml/cases` under `root` (the `fixtures` folder).
    public static func runAll(fixturesRoot root: URL) async throws -> [FixtureOutcome] {
        var outcomes: [FixtureOutcome] = []
        for fixture in try FixtureLoader.cases(in: "saml/cases", root: root) {
            outcomes.append(await run(fixture, fixturesRoot: root))
        }
        return outcomes
    }

    /// Runs one case.
    public static func run(_ fixture: FixtureLoader.Case, fixturesRoot root: URL) async -> FixtureOutcome {
        let expected = fixture.string("expect") ?? "missing_expect"
        let folder = root.appendingPathComponent("saml")
        let actual: String
        do {
            switch fixture.string("kind") {
            case "response": actual = try await response(fixture, folder: folder)
            case "redirect_message": actual = try redirectMessage(fixture, folder: folder)
            case "metadata": actual = try metadata(fixture, folder: folder)
            default: actual = "unknown_fixture_kind"
            }
        } catch let error as SAMLError {
            actual = error.code.description
        } catch {
            actual = "fixture_error"
        }
        return FixtureOutcome(name: fixture.name, expected: expected, actual: actual)
    }

    private static func file(_ path: String?, in folder: URL) throws -> [UInt8] {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        return Array(try Data(contentsOf: folder.appendingPathComponent(path)))
    }

    private static func text(_ path: String?, in folder: URL) throws -> String {
        String(decoding: try file(path, in: folder), as: UTF8.self)
    }

    private static func response(_ fixture: FixtureLoader.Case, folder: URL) async throws -> String {
        guard let spEntityID = fixture.string("sp_entity_id"), let acsURL = fixture.string("acs_url"),
            let nowText = fixture.string("now"), let now = SAMLDateTime.parse(nowText),
            let certificatePaths = fixture.members["idp_certs"]?.arrayValue
        else { return "fixture_error" }
        let certificates = try certificatePaths.map { try SAMLCertificate(pem: text($0.stringValue, in: folder)) }
        var limits = XMLLimits()
        if let maximum = fixture.members["max_bytes"]?.int64Value { limits.maximumDocumentBytes = Int(maximum) }
        let policy = fixture.string("signature_policy").flatMap(SAMLSignaturePolicy.init(rawValue:))
        let configuration = SAMLResponseVerifier.Configuration(
            serviceProviderEntityID: spEntityID, assertionConsumerServiceURL: acsURL,
            identityProviderEntityID: fixture.string("idp_entity_id") ?? "", identityProviderCertificates: certificates,
            signaturePolicy: policy ?? .assertionCovered,
            insecureAllowSHA1: fixture.members["allow_sha1"]?.boolValue ?? false,
            insecureSkipIssuerCheck: fixture.string("idp_entity_id") == nil,
            clockSkew: TimeInterval(fixture.members["clock_skew"]?.int64Value ?? 60), limits: limits,
            decryptionKey: try fixture.string("sp_key").map { try SAMLPrivateKey(pem: text($0, in: folder)) })
        let verifier = SAMLResponseVerifier(
            configuration: configuration, clock: FixedClock(now), replayGuard: InMemoryAssertionReplayGuard())
        let solicitation: SAMLResponseVerifier.Solicitation
        if let requestID = fixture.string("request_id") {
            solicitation = .request(id: requestID)
        } else if fixture.members["allow_unsolicited"]?.boolValue == true {
            solicitation = .unsolicited
        } else {
            return SAMLError(.unsolicitedResponse, "").code.description
        }
        let input = try file(fixture.string("response"), in: folder)
        let assertion: SAMLAssertion
        if fixture.string("encoding") == "base64" {
            assertion = try await verifier.verify(
                postedResponse: String(decoding: input, as: UTF8.self), solicitation: solicitation)
        } else {
            assertion = try await verifier.verify(xml: input, solicitation: solicitation)
        }
        return compare(assertion, with: fixture.members["expect_assertion"]?.objectValue)
    }

    /// `valid`, or `<field>_mismatch` for the first expected field the assertion does not match.
    private static func compare(_ assertion: SAMLAssertion, with expected: [String: JSONValue]?) -> String {
        guard let expected else { return "valid" }
        func check(_ key: String, _ actual: String?) -> Bool {
            guard let value = expected[key] else { return true }
            if case .null = value { return actual == nil }
            return value.stringValue == actual
        }
        let fields: [(String, String?)] = [
            ("issuer", assertion.issuer), ("name_id", assertion.nameID), ("name_id_format", assertion.nameIDFormat),
            ("session_index", assertion.sessionIndex), ("assertion_id", assertion.assertionID),
            ("not_on_or_after", assertion.notOnOrAfter.map(SAMLDateTime.format)),
        ]
        for (key, value) in fields where !check(key, value) { return "\(key)_mismatch" }
        if let attributes = expected["attributes"]?.objectValue {
            let actual = assertion.attributeValues
            guard attributes.count == actual.count else { return "attributes_mismatch" }
            for (name, values) in attributes {
                guard values.arrayValue?.compactMap(\.stringValue) == actual[name] else { return "attributes_mismatch" }
            }
        }
        return "valid"
    }

    private static func redirectMessage(_ fixture: FixtureLoader.Case, folder: URL) throws -> String {
        guard let query = fixture.string("query") else { return "fixture_error" }
        let signer = try fixture.string("signer_cert").map { try SAMLCertificate(pem: text($0, in: folder)) }
        let maximum = fixture.members["max_inflated_bytes"]?.int64Value.map(Int.init) ?? 1 << 20
        let message = try RedirectBinding.decode(query: query, signer: signer, maximumInflatedBytes: maximum)
        if let expected = fixture.members["expect_message"]?.objectValue {
            if let id = expected["id"]?.stringValue, id != message.id { return "id_mismatch" }
            if let issuer = expected["issuer"]?.stringValue, issuer != message.issuer { return "issuer_mismatch" }
            if let relayState = expected["relay_state"] {
                if relayState.stringValue != message.relayState { return "relay_state_mismatch" }
            }
        }
        return "valid"
    }

    private static func metadata(_ fixture: FixtureLoader.Case, folder: URL) throws -> String {
        let signer = try fixture.string("signing_cert").map { try SAMLCertificate(pem: text($0, in: folder)) }
        let now = fixture.string("now").flatMap(SAMLDateTime.parse) ?? Date(timeIntervalSince1970: 1_767_225_600)
        let metadata = try IdentityProviderMetadata.parse(
            file(fixture.string("metadata"), in: folder), pinnedSigner: signer, now: now)
        if let expected = fixture.members["expect_metadata"]?.objectValue {
            if let entityID = expected["entity_id"]?.stringValue, entityID != metadata.entityID {
                return "entity_id_mismatch"
            }
            if let urls = expected["sso_urls"]?.objectValue {
                for (binding, url) in urls where metadata.singleSignOnURL(binding: binding) != url.stringValue {
                    return "sso_urls_mismatch"
                }
            }
            if let count = expected["signing_cert_count"]?.int64Value, Int(count) != metadata.signingCertificates.count
            {
                return "signing_cert_count_mismatch"
            }
            if let wanted = expected["want_authn_requests_signed"]?.boolValue,
                wanted != metadata.wantAuthnRequestsSigned
            {
                return "want_authn_requests_signed_mismatch"
            }
        }
        return "valid"
    }
}
