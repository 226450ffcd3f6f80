import Crypto
import Foundation
import SSOKitRights
import SSOKitStore
import SSOKitTokenCache

/// One passphrase try: scrypt (r = 8, p = 1) through `PassphraseRequirement`, which derives the key once on
/// creation, and a whole `authorize` of a right persisted in SQLite (the attempt counted in the store, scrypt, the
/// check, the slot opened, the counters reset). At the real costs (N = 2^15 … 2^18, standard 2^17) a try takes
/// 0.1 to 1 s: wall time only. At `PassphraseCost.minimumForTests` (2^10) the same code is cheap enough for
/// valgrind, and its instruction count is gated.
enum RightsWorkloads {
    static var all: [Workload] {
        [15, 16, 17, 18].map { exponent in
            scrypt("scrypt-n2^\(exponent)", PassphraseCost(rounds: 1 << exponent, blockSize: 8, parallelism: 1))
        } + [
            scrypt("scrypt-minimum-cost-n2^10", .minimumForTests),
            authorize("authorize-sqlite-standard-cost", .standard),
            authorize("authorize-sqlite-minimum-cost", .minimumForTests),
        ]
    }

    static func scrypt(_ name: String, _ cost: PassphraseCost) -> Workload {
        Workload("Rights", name, slow: cost.rounds > PassphraseCost.minimumForTests.rounds) {
            .sync { _ = try PassphraseRequirement(label: "b", passphrase: "bench pass", cost: cost) }
        }
    }

    static func authorize(_ name: String, _ cost: PassphraseCost) -> Workload {
        Workload("Rights", name, slow: cost.rounds > PassphraseCost.minimumForTests.rounds) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssokit-rights-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try RightStore(
                records: try await SQLiteTokenCacheStore.open(
                    path: directory.appendingPathComponent("cache.sqlite").path),
                deviceKey: SymmetricKey(size: .bits256))
            let right = try Right(
                requirement: .passphrase(try PassphraseRequirement(label: "b", passphrase: "bench pass", cost: cost)),
                authenticator: FixedPassphrase(answer: "bench pass"))
            let persisted = try await store.persist(right, identifier: "bench")
            return Workload.Operation.async {
                try await persisted.authorize(localizedReason: "bench")
                persisted.deauthorize()
            }.withTeardown { try? FileManager.default.removeItem(at: directory) }
        }
    }
}

/// Answers every prompt with the same passphrase.
struct FixedPassphrase: RightAuthenticator {
    let answer: String
    func passphrase(for request: PassphraseRequest) async -> String? { answer }
}
