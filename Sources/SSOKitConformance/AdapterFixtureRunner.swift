import Foundation
import HTTPTypes
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import SSOKitSAML

/// Runs the cases of `fixtures/adapter/cases` through the redirect-extension adapter, against an
/// ``InMemoryIdentityProvider``, and compares the results (the format is in `fixtures/adapter/README.md`).
public enum AdapterFixtureRunner {
    /// Runs every case in `fixtures/adapter/cases` under `root` (the `fixtures` folder).
    public static func runAll(fixturesRoot root: URL) async throws -> [FixtureOutcome] {
        var outcomes: [FixtureOutcome] = []
        for fixture in try FixtureLoader.cases(in: "adapter/cases", root: root) {
            outcomes.append(await run(fixture, fixturesRoot: root))
        }
        return outcomes
    }

    /// Runs one case.
    public static func run(_ fixture: FixtureLoader.Case, fixturesRoot root: URL) async -> FixtureOutcome {
        let expected = fixture.string("expect") ?? "missing_expect"
        let actual: String
        do {
            actual = try await verdict(fixture, root: root)
        } catch let error as AuthorizationInputError {
            actual = error.code.description
        } catch {
            actual = "fixture_error"
        }
        return FixtureOutcome(name: fixture.name, expected: expected, actual: actual)
    }

    private static func verdict(_ fixture: FixtureLoader.Case, root: URL) async throws -> String {
        let harness = try await prepare(fixture, root: root)
        var request = fixture.members["request"]?.objectValue ?? [:]
        if let saml = fixture.members["saml_request"] {
            request["url"] = .string(
                try samlRequestURL(id: saml["id"]?.stringValue, relayState: saml["relay_state"]?.stringValue))
        }
        var result = await harness.adapter.authorize(try AuthorizationRequest(jsonObject: request))
        if let resume = fixture.string("resume"), case .needsInteraction(let interaction) = result {
            let password = resume == "valid" ? harness.idp.password : "not the password"
            result = await harness.adapter.resume(
                interaction: interaction.id,
                with: .credentials(["username": harness.idp.username, "password": password]))
        }
        return compare(result, with: fixture.members)
    }

    /// The harness with the case's profile, IdP state, logins and clock.
    private static func prepare(_ fixture: FixtureLoader.Case, root: URL) async throws -> AdapterHarness {
        let folder = root.appendingPathComponent("adapter")
        let profileURL = folder.appendingPathComponent(fixture.string("profile") ?? "profiles/standard.json")
        let setup = fixture.members["setup"]?.objectValue ?? [:]
        let response = try Data(contentsOf: root.appendingPathComponent("saml/responses/both-signed-valid.xml"))
        let clock = AdjustableClock()
        let idp = InMemoryIdentityProvider(
            clock: clock, accessTokenLifetime: TimeInterval(setup["access_token_lifetime"]?.int64Value ?? 3600),
            samlPage: .init(response: response.base64EncodedString(), acs: "https://sp.example.com/saml/acs"))
        var limits = ExtensionLimits()
        if let cap = setup["max_response_bytes"]?.int64Value { limits.maximumResponseBytes = Int(cap) }
        let harness = try AdapterHarness(
            profile: Array(try Data(contentsOf: profileURL)), idp: idp, clock: clock,
            directory: profileURL.deletingLastPathComponent().path)
        for app in setup["logged_in"]?.arrayValue?.compactMap(\.stringValue) ?? [] { await harness.login(app) }
        if let seconds = setup["advance_seconds"]?.int64Value { clock.advance(TimeInterval(seconds)) }
        if setup["revoke_refresh_tokens"] == .bool(true) { idp.revokeRefreshTokens() }
        if setup["end_idp_sessions"] == .bool(true) { idp.endSessions() }
        guard limits.maximumResponseBytes != ExtensionLimits().maximumResponseBytes else { return harness }
        // The same state behind an adapter with the case's limits.
        return try AdapterHarness(
            profile: Array(try Data(contentsOf: profileURL)), limits: limits, idp: idp, clock: clock,
            store: harness.store, key: harness.key, directory: profileURL.deletingLastPathComponent().path)
    }

    /// A web app's redirect-binding AuthnRequest to the in-memory IdP's SSO URL.
    private static func samlRequestURL(id: String?, relayState: String?) throws -> String {
        let authn = AuthnRequest(
            id: id ?? AuthnRequestBuilder.newID(), issueInstant: Date(timeIntervalSince1970: 1_767_225_600),
            destination: "https://idp.test/saml/sso", assertionConsumerServiceURL: "https://sp.example.com/saml/acs",
            issuer: "https://sp.example.com/saml")
        return try RedirectBinding.url(destination: "https://idp.test/saml/sso", xml: authn.xml, relayState: relayState)
    }

    /// The result's kind when every detail the case pins holds; otherwise which detail differs.
    private static func compare(_ result: AuthorizationResult, with case: [String: JSONValue]) -> String {
        let object = result.jsonObject
        if let status = `case`["expect_status"]?.int64Value, object["status"]?.int64Value != status {
            return "status_mismatch"
        }
        let headers = object["headers"]?.objectValue ?? [:]
        if let names = `case`["expect_header_names"]?.arrayValue?.compactMap(\.stringValue),
            Set(names.map { $0.lowercased() }) != Set(headers.keys.map { $0.lowercased() })
        {
            return "header_names_mismatch"
        }
        for (name, value) in `case`["expect_headers"]?.objectValue ?? [:]
        where header(headers, name) != value.stringValue {
            return "header_mismatch:\(name)"
        }
        for (name, value) in `case`["expect_header_prefixes"]?.objectValue ?? [:] {
            guard let prefix = value.stringValue, header(headers, name)?.hasPrefix(prefix) == true else {
                return "header_mismatch:\(name)"
            }
        }
        for (name, value) in `case`["expect_header_contains"]?.objectValue ?? [:] {
            guard let part = value.stringValue, header(headers, name)?.contains(part) == true else {
                return "header_mismatch:\(name)"
            }
        }
        let body = object["body"]?.stringValue.flatMap { try? JSONParser().parse(Array($0.utf8)) }?.objectValue
        if `case`["expect_empty_body"] == .bool(true), object["body"] != .null { return "body_mismatch" }
        if let keys = `case`["expect_body_keys"]?.arrayValue?.compactMap(\.stringValue),
            Set(keys) != Set(body?.keys ?? [:].keys)
        {
            return "body_mismatch"
        }
        for (name, value) in `case`["expect_body"]?.objectValue ?? [:] where body?[name] != value {
            return "body_mismatch:\(name)"
        }
        if let error = `case`["expect_error"], let actual = object["error"],
            actual["code"] != error["code"] || actual["reason"] != error["reason"]
        {
            return "error_mismatch:\(actual["code"]?.stringValue ?? "-")/\(actual["reason"]?.stringValue ?? "-")"
        }
        if let interaction = `case`["expect_interaction"], let actual = object["interaction"],
            actual["kind"] != interaction["kind"] || actual["fields"] != interaction["fields"]
        {
            return "interaction_mismatch"
        }
        return result.kind
    }

    /// A header by name, ignoring case.
    private static func header(_ headers: [String: JSONValue], _ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value.stringValue
    }
}
