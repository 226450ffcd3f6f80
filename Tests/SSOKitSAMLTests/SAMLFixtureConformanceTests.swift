import Foundation
import SSOKitConformance
import SSOKitSAML
import Testing

@Suite("Fixture conformance (fixtures/saml/cases)")
struct SAMLFixtureConformanceTests {
    static let cases: [FixtureLoader.Case] = (try? FixtureLoader.cases(in: "saml/cases")) ?? []

    @Test("the fixtures folder is found and every case file parses")
    func fixturesAreFound() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(), "no fixtures/ folder found")
        let names = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("saml/cases").path
        ).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 40)
        #expect(Self.cases.count == names.count)
    }

    @Test("SSOKitSAML reaches the expected verdict", arguments: cases)
    func conformance(_ fixture: FixtureLoader.Case) async throws {
        let root = try #require(FixtureLoader.fixturesDirectory())
        let outcome = await SAMLFixtureRunner.run(fixture, fixturesRoot: root)
        #expect(outcome.passed, "\(outcome.description) — \(fixture.string("description") ?? "")")
    }

    @Test("every expected code is a SAMLError code, and each kind has valid and rejected cases")
    func casesAreWellFormed() {
        let known = Set(SAMLError.Code.all.map(\.description)).union(["valid"])
        for fixture in Self.cases {
            #expect(known.contains(fixture.string("expect") ?? ""), "\(fixture.name)")
        }
        for kind in ["response", "redirect_message", "metadata"] {
            let ofKind = Self.cases.filter { $0.string("kind") == kind }
            #expect(ofKind.contains { $0.string("expect") == "valid" }, "\(kind)")
            #expect(ofKind.contains { $0.string("expect") != "valid" }, "\(kind)")
        }
    }

    @Test("every wrapping variant XSW1-XSW8 has a case, and each is rejected")
    func wrappingVariantsAreCovered() {
        for variant in 1...8 {
            let matching = Self.cases.filter { $0.name.hasPrefix("xsw\(variant)-") }
            #expect(!matching.isEmpty, "no case for XSW\(variant)")
            #expect(matching.allSatisfy { $0.string("expect") != "valid" })
        }
    }

    @Test("responses produced by pysaml2 (an independent implementation) are among the accepted cases")
    func interopCasesExist() {
        let interop = Self.cases.filter { $0.name.hasPrefix("pysaml2-") && $0.string("expect") == "valid" }
        #expect(interop.count >= 3)
    }
}
