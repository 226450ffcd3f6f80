import Foundation
import SSOKitConformance
import Testing

/// Every case of `fixtures/adapter/cases`: request → result kind, status, headers (the format is in
/// `fixtures/adapter/README.md`); `ssokit conformance fixtures/` runs the same cases.
@Suite struct AdapterFixtureConformanceTests {
    static let cases: [FixtureLoader.Case] = (try? FixtureLoader.cases(in: "adapter/cases")) ?? []

    @Test func theCasesAreThere() {
        #expect(Self.cases.count >= 30)
    }

    @Test(arguments: cases)
    func adapterCase(_ fixture: FixtureLoader.Case) async throws {
        let root = try #require(FixtureLoader.fixturesDirectory())
        let outcome = await AdapterFixtureRunner.run(fixture, fixturesRoot: root)
        #expect(outcome.passed, "\(outcome)")
    }
}
