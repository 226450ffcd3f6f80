import Foundation
import SSOKitWorkloads

// The wall-time ratios SSOKit / floor (ops/s of SSOKit's operation over ops/s of its floor), each the median of 7
// paired rounds: in each round the floor runs for half the round's seconds, then SSOKit's side, so that a change
// in the machine's other load falls on both alike.
//
//   ratios [SECONDS-PER-ROUND] [NAME-FILTER]   (1 s by default; pin with `taskset -c 0` on a quiet core)

/// SSOKit's operation, its floor, and the issue's target for the ratio when there is one.
struct Pair {
    let candidate: String
    let floor: String
    let target: Double?
}

let pairs = [
    Pair(candidate: "IDToken/rs256-verify", floor: "IDToken/rs256-floor-swift-crypto", target: 0.85),
    Pair(candidate: "IDToken/es256-verify", floor: "IDToken/es256-floor-swift-crypto", target: nil),
    Pair(candidate: "IDToken/eddsa-verify", floor: "IDToken/eddsa-floor-swift-crypto", target: nil),
    Pair(candidate: "SAML/verify", floor: "SAML/floor-c-loop-bare-key", target: 0.90),
    Pair(candidate: "SAML/authnrequest-redirect-signed", floor: "SAML/floor-rsa2048-sign", target: nil),
    Pair(candidate: "ProfileMatch/match-redirect", floor: "ProfileMatch/floor-memory-cache-hit", target: nil),
    Pair(candidate: "ProfileMatch/match-credential", floor: "ProfileMatch/floor-memory-cache-hit", target: nil),
    Pair(candidate: "Adapter/refresh-from-cache", floor: "Adapter/floor-memory-cache-hit", target: 0.4),
    Pair(candidate: "Adapter/bearer-challenge", floor: "Adapter/floor-memory-cache-hit", target: 0.4),
]

/// Calls of `operation` per second over about `seconds`, after 200 warm-up calls.
func opsPerSecond(_ operation: Workload.Operation, seconds: Double) async throws -> Double {
    for _ in 0..<200 { try await operation() }
    let clock = ContinuousClock()
    let start = clock.now
    let end = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
    var calls = 0
    var now = start
    while now < end {
        try await operation()
        calls += 1
        now = clock.now
    }
    let elapsed = start.duration(to: now)
    return Double(calls) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

/// Runs the pairs whose names contain `filter`, off the main actor.
func run(seconds: Double, filter: String?) async throws {
    print("Wall-time ratios SSOKit / floor: median of 7 paired rounds of \(seconds) s")
    for pair in pairs where filter.map({ pair.candidate.contains($0) || pair.floor.contains($0) }) ?? true {
        guard let candidate = Workloads.named(pair.candidate), let floor = Workloads.named(pair.floor) else {
            throw WorkloadFailure("no workload \(pair.candidate) or \(pair.floor)")
        }
        let candidateOperation = try await candidate.prepare()
        let floorOperation = try await floor.prepare()
        var ratios: [Double] = []
        var overheads: [Double] = []
        for _ in 0..<7 {
            let floorRate = try await opsPerSecond(floorOperation, seconds: seconds / 2)
            let candidateRate = try await opsPerSecond(candidateOperation, seconds: seconds / 2)
            ratios.append(candidateRate / floorRate)
            overheads.append((1 / candidateRate - 1 / floorRate) * 1e6)
        }
        await candidateOperation.teardown?()
        await floorOperation.teardown?()
        let ratio = ratios.sorted()[3]
        let overhead = overheads.sorted()[3]
        let verdict = pair.target.map { ratio >= $0 ? "meets the \($0) target" : "MISSES the \($0) target" } ?? ""
        print(
            "  \(pair.candidate) / \(pair.floor): \(String(format: "%.3f", ratio))"
                + "  (\(String(format: "%+.2f", overhead)) µs per call)  \(verdict)")
        print("    paired ratios: \(ratios.map { String(format: "%.3f", $0) }.joined(separator: " "))")
    }
}

let arguments = CommandLine.arguments.dropFirst()
try await run(seconds: arguments.first.flatMap(Double.init) ?? 1.0, filter: arguments.dropFirst().first)
