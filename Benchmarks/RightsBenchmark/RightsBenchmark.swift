import Crypto
import Foundation
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache

/// What one passphrase try costs: scrypt at several costs through `PassphraseRequirement` (which derives the key once
/// on creation), and a whole authorization of a right persisted in SQLite at the standard cost (the attempt counted
/// in the store, scrypt, the check, the slot opened, the counters reset), one call at a time.
///
/// Run: `swift build -c release --product RightsBenchmark && taskset -c 0 .build/release/RightsBenchmark 5`
@main
struct RightsBenchmark {
    static func main() async throws {
        let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5
        try await Task.detached { try await run(runs: runs) }.value
    }

    /// Wall and process CPU time of `runs` calls of `body`, after one warm-up call. The CPU time is what a try costs
    /// on an idle machine; on a busy one the wall time is larger.
    static func time(_ runs: Int, _ body: () async throws -> Void) async rethrows -> (wall: [Double], cpu: [Double]) {
        try await body()
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<runs {
            let (wallBefore, cpuBefore) = (now(CLOCK_MONOTONIC), now(CLOCK_PROCESS_CPUTIME_ID))
            try await body()
            wall.append(now(CLOCK_MONOTONIC) - wallBefore)
            cpu.append(now(CLOCK_PROCESS_CPUTIME_ID) - cpuBefore)
        }
        return (wall.sorted(), cpu.sorted())
    }

    /// Milliseconds on `clock`.
    static func now(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }

    static func line(_ name: String, _ times: (wall: [Double], cpu: [Double])) {
        let format = { (values: [Double]) in
            "min \(Int(values.first?.rounded() ?? 0)) ms, median \(Int(values[values.count / 2].rounded())) ms"
        }
        let label = name.padding(toLength: 52, withPad: " ", startingAt: 0)
        print("  \(label) CPU \(format(times.cpu)); wall \(format(times.wall))")
    }

    static func run(runs: Int) async throws {
        print("Passphrase tries (\(runs) runs each after a warm-up; r = 8, p = 1)")
        for exponent in [15, 16, 17, 18] {
            let cost = PassphraseCost(rounds: 1 << exponent, blockSize: 8, parallelism: 1)
            line(
                "scrypt N = 2^\(exponent) (\(128 * 8 * (1 << exponent) / (1 << 20)) MiB)",
                try await time(runs) { _ = try PassphraseRequirement(label: "b", passphrase: "bench pass", cost: cost) }
            )
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-rights-bench-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try RightStore(
            records: try await SQLiteTokenCacheStore.open(path: directory.appendingPathComponent("cache.sqlite").path),
            deviceKey: SymmetricKey(size: .bits256))
        let cost = PassphraseCost.standard
        let answer = FixedPassphrase(answer: "bench pass")
        let right = try Right(
            requirement: .passphrase(try PassphraseRequirement(label: "b", passphrase: "bench pass", cost: cost)),
            authenticator: answer)
        let persisted = try await store.persist(right, identifier: "bench")
        line(
            "authorize, SQLite, standard cost (N = 2^\(cost.rounds.trailingZeroBitCount))",
            try await time(runs) {
                try await persisted.authorize(localizedReason: "bench")
                persisted.deauthorize()
            })
    }
}

/// Answers every prompt with the same passphrase.
struct FixedPassphrase: RightAuthenticator {
    let answer: String
    func passphrase(for request: PassphraseRequest) async -> String? { answer }
}
