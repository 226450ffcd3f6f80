import Crypto
import CryptoExtras
import Foundation
import SSOKitCore

/// A passphrase that must be entered. Holds a random salt, the scrypt cost and a check value derived from the
/// passphrase; never the passphrase or the key derived from it, except in memory right after creation, so that
/// ``RightStore`` can seal a persisted right's material under it. A persisted requirement's check value also needs
/// the store's device key: the stored rows alone confirm no guess.
public struct PassphraseRequirement: Sendable {
    /// Shown to the user when the passphrase is asked for (e.g. "cache passphrase").
    public let label: String
    let salt: [UInt8]
    let cost: PassphraseCost
    let check: [UInt8]
    /// The derived key, present only on a requirement created from its passphrase in this process.
    let creationKey: SymmetricKey?

    /// Derives the check value from `passphrase` with scrypt at `cost` and a new random salt.
    public init(label: String, passphrase: String, cost: PassphraseCost = .standard) throws(RightError) {
        guard cost.isAcceptable else {
            throw RightError(.invalidRequirement, "the scrypt cost is outside the accepted bounds")
        }
        guard !passphrase.isEmpty else { throw RightError(.invalidRequirement, "the passphrase is empty") }
        let salt = SecureRandom.bytes(16)
        let key = try Self.derive(passphrase, salt: salt, cost: cost)
        self.init(
            label: label, salt: salt, cost: cost, check: PassphraseCheck.inMemory.value(for: key), creationKey: key)
    }

    init(label: String, salt: [UInt8], cost: PassphraseCost, check: [UInt8], creationKey: SymmetricKey?) {
        self.label = label
        self.salt = salt
        self.cost = cost
        self.check = check
        self.creationKey = creationKey
    }

    /// The key that `passphrase` derives, when `check` recognizes it; nil otherwise.
    func key(for passphrase: String, check: PassphraseCheck) throws(RightError) -> SymmetricKey? {
        let key = try Self.derive(passphrase, salt: salt, cost: cost)
        return ConstantTime.equals(check.value(for: key), self.check) ? key : nil
    }

    static func derive(_ passphrase: String, salt: [UInt8], cost: PassphraseCost) throws(RightError) -> SymmetricKey {
        let normalized = Array(passphrase.precomposedStringWithCanonicalMapping.utf8)
        do {
            return try KDF.Scrypt.deriveKey(
                from: normalized, salt: salt, outputByteCount: 32, rounds: cost.rounds, blockSize: cost.blockSize,
                parallelism: cost.parallelism, maxMemory: cost.memoryBound)
        } catch {
            throw RightError(.cryptoFailure, "scrypt failed")
        }
    }
}
