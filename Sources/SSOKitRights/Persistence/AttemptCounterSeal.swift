import Crypto
import Foundation
import SSOKitCore
import SSOKitStore

/// Authenticates a persisted right's attempt counters: HMAC-SHA256 under a key derived from the device key, over
/// the right's identifier, a digest of its record and the counters. Counters edited in the store (reset to zero,
/// copied from another right or from an earlier record under the same identifier) no longer verify, and the right
/// then refuses every attempt.
///
/// A MAC cannot tell a whole row rolled back to an earlier state of its own from the current one: that needs state
/// outside the store (see the README).
struct AttemptCounterSeal: Sendable {
    private let key: SymmetricKey
    private let context: [UInt8]

    init(deviceKey: RightDeviceKey, identifier: String, record: [UInt8]) {
        key = deviceKey.derive(Array("ssokit-right-attempts-v1".utf8))
        var context = Self.bigEndian(UInt64(identifier.utf8.count)) + Array(identifier.utf8)
        context += SHA256.hash(data: record)
        self.context = context
    }

    /// The counters with their tag, as stored.
    func seal(_ counters: RightAttemptCounters) -> RightAttempts {
        RightAttempts(
            failedAttempts: counters.failedAttempts, lockedUntil: counters.lockedUntil, tag: tag(for: counters))
    }

    /// The counters, when `attempts` carries their tag; nil when they were edited or sealed under another key.
    func open(_ attempts: RightAttempts) -> RightAttemptCounters? {
        let counters = RightAttemptCounters(failedAttempts: attempts.failedAttempts, lockedUntil: attempts.lockedUntil)
        return ConstantTime.equals(tag(for: counters), attempts.tag) ? counters : nil
    }

    private func tag(for counters: RightAttemptCounters) -> [UInt8] {
        var message = context + Self.bigEndian(UInt64(bitPattern: Int64(counters.failedAttempts)))
        if let lockedUntil = counters.lockedUntil {
            message += [1] + Self.bigEndian(lockedUntil.timeIntervalSince1970.bitPattern)
        } else {
            message += [0]
        }
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
}
