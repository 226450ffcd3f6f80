import Crypto
import CryptoExtras
import Foundation
import SSOKitCore
import SSOKitOIDC

/// A salted scrypt hash of a password: the only form in which the IdP keeps one.
struct PasswordHash: Sendable {
    /// scrypt r and p; N comes from the cost.
    static let blockSize = 8
    static let parallelism = 1

    private let salt: [UInt8]
    private let digest: [UInt8]
    private let rounds: Int

    /// Hashes `password` under a fresh 128-bit salt.
    init(hashing password: String, cost: DevIdPPasswordCost = .standard) throws(DevIdPError) {
        let salt = SecureRandom.bytes(16)
        self.salt = salt
        self.rounds = cost.rounds
        self.digest = try Self.derive(password, salt: salt, rounds: cost.rounds)
    }

    /// Whether `candidate` is the password, compared in constant time; false if hashing fails.
    func matches(_ candidate: String) -> Bool {
        guard let derived = try? Self.derive(candidate, salt: salt, rounds: rounds) else { return false }
        return ConstantTime.equals(derived, digest)
    }

    /// A hash that no password is known to match: checked against unknown usernames, so that their answer takes as
    /// long as a wrong password's and does not tell which usernames exist.
    static let decoy: PasswordHash? = try? PasswordHash(hashing: RandomToken.make())

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) throws(DevIdPError) -> [UInt8] {
        guard password.utf8.count <= 1024 else { throw DevIdPError(.invalidCredentials, "the password is too long") }
        let normalized = Array(password.precomposedStringWithCanonicalMapping.utf8)
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: normalized, salt: salt, outputByteCount: 32, rounds: rounds, blockSize: blockSize,
                parallelism: parallelism, maxMemory: 128 * blockSize * rounds * (parallelism + 2))
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw DevIdPError(.serverError, "scrypt failed")
        }
    }
}
