import Crypto
import Foundation

/// Seals and opens a right's material per slot. A slot's key is HKDF-SHA256 over the store's device key followed by
/// the scrypt-derived keys of the slot's passphrase leaves, so a slot that needs a passphrase cannot be opened from
/// the stored rows and the device key alone.
struct RightSlotSealer {
    let deviceKey: SymmetricKey

    func key(binding: [UInt8], slot index: Int, passphraseKeys: [SymmetricKey]) -> SymmetricKey {
        var material = deviceKey.withUnsafeBytes { Array($0) }
        for key in passphraseKeys { material += key.withUnsafeBytes { Array($0) } }
        var info = Array("ssokit-right-slot-v1".utf8) + binding
        info += withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: material), salt: Array("ssokit-rights".utf8), info: info,
            outputByteCount: 32)
    }

    func seal(_ plaintext: [UInt8], binding: [UInt8], slot index: Int, passphraseKeys: [SymmetricKey])
        throws(RightError) -> Data
    {
        let key = key(binding: binding, slot: index, passphraseKeys: passphraseKeys)
        guard let box = try? AES.GCM.seal(plaintext, using: key, authenticating: binding), let combined = box.combined
        else { throw RightError(.cryptoFailure, "the right's material cannot be sealed") }
        return combined
    }

    func open(_ sealed: Data, binding: [UInt8], slot index: Int, passphraseKeys: [SymmetricKey]) -> [UInt8]? {
        let key = key(binding: binding, slot: index, passphraseKeys: passphraseKeys)
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let plaintext = try? AES.GCM.open(box, using: key, authenticating: binding)
        else { return nil }
        return Array(plaintext)
    }
}
