import Foundation
import SSOKitWorkloads

// The wall-time ratios SSOKit / floor (ops/s of SSOKit's operation over ops/s of its floor), each the median of
// paired rounds (7 by default): in each round the floor runs for half the round's seconds, then SSOKit's side, so
// that a change in the machine's other load falls on both alike. On a machine whose neighbours come and go, many
// short rounds give a steadier median than a few long ones.
//
//   ratios [SECONDS-PER-ROUND] [NAME-FILTER] [ROUNDS]   (1 s and 7 rounds by default; pin with `taskset -c 0`)

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

/// Calls of `operation` per second over about `seconds`, after 200 warm-up calls; each call's time (µs) is appended
/// to `latencies`.
func opsPerSecond(_ operation: Workload.Operation, seconds: Double, latencies: inout [Double]) async throws -> Double {
    for _ in 0..<200 { try await operation() }
    let clock = ContinuousClock()
    let start = clock.now
    let end = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
    var calls = 0
    var now = start
    while now < end {
        try await operation()
        calls += 1
        let before = now
        now = clock.now
        latencies.append(microseconds(before.duration(to: now)))
    }
    return Double(calls) / microseconds(start.duration(to: now)) * 1e6
}

/// `duration` in microseconds.
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// The value at `fraction` (0...1) of `values` sorted, the nearest rank.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}

/// Runs the pairs whose names contain `filter`, off the main actor.
func run(seconds: Double, filter: String?, rounds: Int) async throws {
    print("Wall-time ratios SSOKit / floor: median of \(rounds) paired rounds of \(seconds) s")
    for pair in pairs where filter.map({ pair.candidate.contains($0) || pair.floor.contains($0) }) ?? true {
        guard let candidate = Workloads.named(pair.candidate), let floor = Workloads.named(pair.floor) else {
            throw WorkloadFailure("no workload \(pair.candidate) or \(pair.floor)")
        }
        let candidateOperation = try await candidate.prepare()
        let floorOperation = try await floor.prepare()
        var ratios: [Double] = []
        var overheads: [Double] = []
        var floorLatencies: [Double] = []
        var candidateLatencies: [Double] = []
        for _ in 0..<rounds {
            let floorRate = try await opsPerSecond(floorOperation, seconds: seconds / 2, latencies: &floorLatencies)
            let candidateRate = try await opsPerSecond(
                candidateOperation, seconds: seconds / 2, latencies: &candidateLatencies)
            ratios.append(candidateRate / floorRate)
            overheads.append((1 / candidateRate - 1 / floorRate) * 1e6)
        }
        await candidateOperation.teardown?()
        await floorOperation.teardown?()
        let ratio = percentile(ratios, 0.5)
        let overhead = percentile(overheads, 0.5)
        let verdict = pair.target.map { ratio >= $0 ? "meets the \($0) target" : "MISSES the \($0) target" } ?? ""
        print(
            "  \(pair.candidate) / \(pair.floor): \(String(format: "%.3f", ratio))"
                + "  (\(String(format: "%+.2f", overhead)) µs per call)  \(verdict)")
        // The calls one by one: the low percentiles are the calls that the machine's other load did not reach.
        let latencies = [0.1, 0.5].map { fraction in
            (percentile(floorLatencies, fraction), percentile(candidateLatencies, fraction))
        }
        print(
            "    per call, p10 and p50 (µs): floor "
                + latencies.map { String(format: "%.2f", $0.0) }.joined(separator: " / ") + ", SSOKit "
                + latencies.map { String(format: "%.2f", $0.1) }.joined(separator: " / ")
                + "; ratio of the p10s \(String(format: "%.3f", latencies[0].0 / latencies[0].1)),"
                + " of the p50s \(String(format: "%.3f", latencies[1].0 / latencies[1].1))")
        if rounds > 7 {
            print(
                "    quartiles of the paired ratios: \(String(format: "%.3f", percentile(ratios, 0.25)))"
                    + " – \(String(format: "%.3f", percentile(ratios, 0.75)))")
        } else {
            print("    paired ratios: \(ratios.map { String(format: "%.3f", $0) }.joined(separator: " "))")
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
let rounds = max(1, arguments.dropFirst(2).first.flatMap { Int($0) } ?? 7)
try await run(
    seconds: arguments.first.flatMap(Double.init) ?? 1.0, filter: arguments.dropFirst().first, rounds: rounds)
