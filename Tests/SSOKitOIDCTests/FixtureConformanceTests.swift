import Foundation
import SSOKitConformance
import SSOKitOIDC
import Testing

@Suite("Fixture conformance (fixtures/oidc/cases)")
struct FixtureConformanceTests {
    /// Every case file, loaded once when the tests are discovered; empty if the folder cannot be found, which
    /// ``fixturesAreFound()`` reports.
    static let cases: [FixtureLoader.Case] = (try? FixtureLoader.cases(in: "oidc/cases")) ?? []

    @Test("the fixtures folder is found and holds cases")
    func fixturesAreFound() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(), "no fixtures/ folder found")
        let names = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("oidc/cases").path
        ).filter { $0.hasSuffix(".json") }
        #expect(!names.isEmpty)
        #expect(Self.cases.count == names.count, "every case file parses as a JSON object")
    }

    @Test("SSOKit reaches the expected verdict", arguments: cases)
    func conformance(_ fixture: FixtureLoader.Case) async throws {
        let root = try #require(FixtureLoader.fixturesDirectory())
        let outcome = await OIDCFixtureRunner.run(fixture, fixturesRoot: root)
        let description = fixture.string("description") ?? ""
        let spec = fixture.string("spec") ?? ""
        #expect(outcome.passed, "\(outcome.description) — \(description) [\(spec)]")
    }

    @Test("there are at least 40 id_token cases, with both valid and invalid verdicts")
    func idTokenCaseCount() {
        let idTokenCases = Self.cases.filter { $0.string("kind") == "id_token" }
        #expect(idTokenCases.count >= 40, "found \(idTokenCases.count) id_token cases")
        #expect(idTokenCases.contains { $0.string("expect") == "valid" })
        #expect(idTokenCases.contains { $0.string("expect") != "valid" })
    }

    @Test("every case names a known kind and an expected verdict")
    func casesAreWellFormed() {
        let kinds: Set<String> = ["id_token", "pkce", "discovery", "jwks"]
        let codes = Set(OIDCError.Code.all.map(\.description)).union(["valid"])
        for fixture in Self.cases {
            #expect(kinds.contains(fixture.string("kind") ?? ""), "\(fixture.name): unknown kind")
            #expect(codes.contains(fixture.string("expect") ?? ""), "\(fixture.name): unknown expected verdict")
        }
    }

    @Test("runAll agrees with the per-case runs")
    func runAll() async throws {
        let root = try #require(FixtureLoader.fixturesDirectory())
        let outcomes = try await OIDCFixtureRunner.runAll(fixturesRoot: root)
        #expect(outcomes.count == Self.cases.count)
        let failures = outcomes.filter { !$0.passed }.map(\.description)
        #expect(failures.isEmpty, "\(failures.joined(separator: "; "))")
    }
}
