import Foundation
import FuzzHarness
import Testing

/// Replays what fuzzing found and what it starts from, through the fuzz targets' own entry points, in the normal
/// `swift test`: a committed regression input must end in a typed verdict, never a crash or a violated property.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// One committed input: `Fuzz/Regressions/<target>/<file>`.
    struct RegressionInput: Sendable, CustomTestStringConvertible {
        let target: String
        let file: URL
        var testDescription: String { "\(target)/\(file.lastPathComponent)" }
    }

    static let regressionsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Regressions")

    static var regressionInputs: [RegressionInput] {
        let manager = FileManager.default
        let targets = (try? manager.contentsOfDirectory(atPath: regressionsFolder.path)) ?? []
        return targets.sorted().flatMap { target in
            let folder = regressionsFolder.appendingPathComponent(target)
            let files = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            return files.sorted().map { RegressionInput(target: target, file: folder.appendingPathComponent($0)) }
        }
    }

    @Test("Every regression input ends in a typed verdict", arguments: regressionInputs)
    func replay(_ input: RegressionInput) async throws {
        let target = try #require(FuzzTarget.named(input.target), "Fuzz/Regressions/\(input.target) names no target")
        let verdict = await target.run(Array(try Data(contentsOf: input.file)))
        if case .violated(let reason) = verdict { Issue.record("\(input.testDescription): \(reason)") }
    }

    @Test("Every target runs its seeds without a violation and accepts at least one", arguments: FuzzTarget.all)
    func seeds(_ target: FuzzTarget) async throws {
        let seeds = try target.seeds()
        #expect(!seeds.isEmpty)
        var accepted = 0
        for (name, bytes) in seeds.sorted(by: { $0.key < $1.key }) {
            let verdict = await target.run(bytes)
            if case .violated(let reason) = verdict { Issue.record("\(target.name)/\(name): \(reason)") }
            if verdict == .accepted { accepted += 1 }
        }
        #expect(accepted > 0, "\(target.name) accepts none of its seeds: fuzzing would never reach its success path")
    }
}

extension FuzzTarget: CustomTestStringConvertible {
    public var testDescription: String { name }
}
