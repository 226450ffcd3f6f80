import ArgumentParser
import Foundation
import SSOKitConformance
import SSOKitCore
import SSOKitOIDC

/// `ssokit conformance DIR`: runs every fixture case under DIR and reports the verdicts.
struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance", abstract: "Run the protocol fixtures in a fixtures/ folder.")

    @Argument(help: "The fixtures folder (the one holding oidc/, saml/, profiles/ and adapter/).")
    var directory: String

    func run() async throws {
        let root = URL(fileURLWithPath: directory)
        let hasOIDC = FileManager.default.fileExists(atPath: root.appendingPathComponent("oidc/cases").path)
        let hasSAML = FileManager.default.fileExists(atPath: root.appendingPathComponent("saml/cases").path)
        let hasProfiles = FileManager.default.fileExists(atPath: root.appendingPathComponent("profiles/cases").path)
        let hasAdapter = FileManager.default.fileExists(atPath: root.appendingPathComponent("adapter/cases").path)
        guard hasOIDC || hasSAML || hasProfiles || hasAdapter else {
            throw ValidationError(
                "\(directory) holds no oidc/cases, saml/cases, profiles/cases or adapter/cases folder")
        }
        var outcomes: [FixtureOutcome] = []
        if hasOIDC { outcomes += try await OIDCFixtureRunner.runAll(fixturesRoot: root) }
        if hasSAML { outcomes += try await SAMLFixtureRunner.runAll(fixturesRoot: root) }
        if hasProfiles { outcomes += try ProfileFixtureRunner.runAll(fixturesRoot: root) }
        if hasAdapter { outcomes += try await AdapterFixtureRunner.runAll(fixturesRoot: root) }
        let failures = outcomes.filter { !$0.passed }
        CLIOutput.success([
            "passed": .integer(Int64(outcomes.count - failures.count)), "failed": .integer(Int64(failures.count)),
            "failures": .array(
                failures.map {
                    .object(["case": .string($0.name), "expected": .string($0.expected), "actual": .string($0.actual)])
                }),
        ])
        CLIOutput.note("conformance: \(outcomes.count - failures.count) passed, \(failures.count) failed")
        if !failures.isEmpty { throw ExitCode(1) }
    }
}
