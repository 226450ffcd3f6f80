import Crypto

/// How a passphrase requirement recognizes its passphrase: a check value computed from the passphrase's scrypt
/// output and compared in constant time.
///
/// A right held in memory only keeps HMAC-SHA256(scrypt output, label). A persisted right stores a value derived from
/// the store's device key together with the scrypt output, so that whoever copies the stored rows cannot test
/// passphrase guesses offline: every guess needs the device key, or an attempt through ``Right`` that is counted.
struct PassphraseCheck: Sendable {
    /// Nil for a right held in memory only.
    private let deviceKey: RightDeviceKey?

    /// The check of a right that is never stored.
    static let inMemory = PassphraseCheck(deviceKey: nil)

    /// The check of rights persisted under `deviceKey`.
    static func persisted(under deviceKey: RightDeviceKey) -> PassphraseCheck { PassphraseCheck(deviceKey: deviceKey) }

    /// The check value of the scrypt output `derived` (32 bytes).
    func value(for derived: SymmetricKey) -> [UInt8] {
        guard let deviceKey else {
            return Array(
                HMAC<SHA256>.authenticationCode(for: Array("ssokit-right-passphrase-check-v1".utf8), using: derived))
        }
        return deviceKey.derive(Array("ssokit-right-passphrase-check-v2".utf8), mixing: [derived])
            .withUnsafeBytes { Array($0) }
    }
}
