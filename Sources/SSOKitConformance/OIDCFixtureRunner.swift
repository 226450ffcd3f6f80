import Foundation
import SSOKitCore
import SSOKitOIDC

/// Runs the cases of `fixtures/oidc/cases` through SSOKit's public API and compares verdicts.
public enum OIDCFixtureRunner {
    /// The verdict reached for one case.
    public typealias Outcome = FixtureOutcome

    /// Runs every case in `fixtures/oidc/cases` under `root` (the `fixtures` folder).
    public static func runAll(fixturesRoot root: URL) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for fixture in try FixtureLoader.cases(in: "oidc/cases", root: root) {
            outcomes.append(await run(fixture, fixturesRoot: root))
        }
        return outcomes
    }

    /// Runs one case.
    public static func run(_ fixture: FixtureLoader.Case, fixturesRoot root: URL) async -> Outcome {
        let expected = fixture.string("expect") ?? "missing_expect"
        let actual: String
        do {
            switch fixture.string("kind") {
            case "id_token": actual = try await idToken(fixture, root: root)
            case "pkce": actual = try pkce(fixture)
            case "discovery": actual = try discovery(fixture)
            case "jwks": actual = try jwks(fixture)
            default: actual = "unknown_fixture_kind"
            }
        } catch let error as OIDCError {
            actual = error.code.description
        } catch {
            actual = "fixture_error"
        }
        return Outcome(name: fixture.name, expected: expected, actual: actual)
    }

    private static func idToken(_ fixture: FixtureLoader.Case, root: URL) async throws -> String {
        guard let token = fixture.string("token"), let jwksPath = fixture.string("jwks"),
            let issuer = fixture.string("issuer"), let clientID = fixture.string("client_id"),
            let now = fixture.members["now"].flatMap(NumericDate.init)
        else { return "fixture_error" }
        let keySet = try JSONWebKeySet(
            jsonBytes: Array(try Data(contentsOf: root.appendingPathComponent("oidc/\(jwksPath)"))))
        let clock = FixedClock(now.date)
        var configuration = IDTokenVerifier.Configuration(issuer: issuer, clientID: clientID)
        if let clockSkew = fixture.members["leeway"]?.int64Value { configuration.clockSkew = clockSkew }
        if let names = fixture.members["allowed_algs"]?.arrayValue {
            configuration.allowedAlgorithms = names.compactMap { $0.stringValue.flatMap(JWSAlgorithm.init(name:)) }
        }
        let verifier = IDTokenVerifier(configuration: configuration, keys: StaticKeySource(keySet), clock: clock)
        var expectations = IDTokenExpectations(
            nonce: fixture.string("nonce"), maxAge: fixture.members["max_age"]?.int64Value,
            accessToken: fixture.string("access_token"), authorizationCode: fixture.string("code"))
        if let previous = fixture.string("previous_token") {
            // The original token stands for claims the relying party already accepted: only its signature is
            // checked here, so that the case isolates the §12.2 comparison.
            var signatureOnly = configuration
            signatureOnly.checks = []
            expectations.previousClaims = try await IDTokenVerifier(
                configuration: signatureOnly, keys: StaticKeySource(keySet), clock: clock
            ).verify(previous)
        }
        let claims = try await verifier.verify(token, expecting: expectations).all
        for (name, value) in fixture.members["expect_claims"]?.objectValue ?? [:] where claims[name] != value {
            return "claim_\(name)_differs"
        }
        return "valid"
    }

    private static func pkce(_ fixture: FixtureLoader.Case) throws -> String {
        guard let verifier = fixture.string("verifier"), let challenge = fixture.string("challenge") else {
            return "fixture_error"
        }
        let method: PKCE.Method = fixture.string("method") == "plain" ? .plain : .s256
        try PKCE.validate(verifier: verifier, challenge: challenge, method: method)
        return "valid"
    }

    private static func discovery(_ fixture: FixtureLoader.Case) throws -> String {
        guard let document = fixture.members["document"]?.objectValue,
            let issuer = fixture.string("configured_issuer")
        else { return "fixture_error" }
        _ = try ProviderMetadata(document: document, configuredIssuer: issuer)
        return "valid"
    }

    private static func jwks(_ fixture: FixtureLoader.Case) throws -> String {
        guard let document = fixture.members["document"] else { return "fixture_error" }
        let keySet = try JSONWebKeySet(document: document)
        if let usable = fixture.members["usable_keys"]?.int64Value, usable != keySet.keys.count {
            return "usable_keys_\(keySet.keys.count)"
        }
        return "valid"
    }
}
