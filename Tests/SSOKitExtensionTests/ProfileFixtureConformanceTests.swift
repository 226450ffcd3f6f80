import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitExtension
import SSOKitOIDC
import Testing

@Suite("Fixture conformance (fixtures/profiles/cases)")
struct ProfileFixtureConformanceTests {
    static let cases: [FixtureLoader.Case] = (try? FixtureLoader.cases(in: "profiles/cases")) ?? []

    @Test("the fixtures folder is found and every case file parses")
    func fixturesAreFound() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(), "no fixtures/ folder found")
        let names = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("profiles/cases").path
        ).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 40)
        #expect(Self.cases.count == names.count)
    }

    @Test("SSOKitExtension reaches the expected verdict", arguments: cases)
    func conformance(_ fixture: FixtureLoader.Case) throws {
        let root = try #require(FixtureLoader.fixturesDirectory())
        let outcome = ProfileFixtureRunner.run(fixture, fixturesRoot: root)
        #expect(outcome.passed, "\(outcome.description) — \(fixture.string("description") ?? "")")
    }

    @Test("every expected verdict and problem code is a code of the module, and each is exercised")
    func casesAreWellFormed() {
        let known = Set(ProfileError.Code.all.map(\.description)).union(["valid"])
        let problemCodes = Set(ProfileProblem.Code.all.map(\.description))
        var seenProblems: Set<String> = []
        for fixture in Self.cases {
            #expect(known.contains(fixture.string("expect") ?? ""), "\(fixture.name)")
            for row in fixture.members["expect_problems"]?.arrayValue ?? [] {
                let code = row["code"]?.stringValue ?? ""
                #expect(problemCodes.contains(code), "\(fixture.name): \(code)")
                seenProblems.insert(code)
            }
        }
        // Only the associated-domains code is not a loading problem (AssociatedDomainsCheckTests covers it).
        #expect(problemCodes.subtracting(seenProblems) == ["associated_domain_mismatch"])
        let verdicts = Set(Self.cases.compactMap { $0.string("expect") })
        #expect(
            known.subtracting(verdicts) == ["unsigned_profile", "associated_domains_mismatch"],
            "the remaining codes are exercised by ProfileLoaderTests and the CLI tests")
    }
}
