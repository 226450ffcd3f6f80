import Crypto

/// The right store's device key (256 bits, kept outside the store) and the keys derived from it: HKDF-SHA256 over
/// the device key followed by any passphrase-derived keys, salt `ssokit-rights`, one `info` label per use. Whatever
/// is derived here cannot be computed, nor a guess tested against it, from the stored rows alone.
struct RightDeviceKey: Sendable {
    private let key: SymmetricKey

    init(_ key: SymmetricKey) { self.key = key }

    /// A 256-bit key for `info`, mixing in `passphraseKeys` (in order).
    func derive(_ info: [UInt8], mixing passphraseKeys: [SymmetricKey] = []) -> SymmetricKey {
        var material = key.withUnsafeBytes { Array($0) }
        for passphraseKey in passphraseKeys { material += passphraseKey.withUnsafeBytes { Array($0) } }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: material), salt: Array("ssokit-rights".utf8), info: info,
            outputByteCount: 32)
    }
}
