import Crypto
import Foundation

/// Seals and opens a right's material per slot. A slot's key is derived from the store's device key followed by the
/// scrypt-derived keys of the slot's passphrase leaves, so a slot that needs a passphrase cannot be opened from the
/// stored rows and the device key alone.
struct RightSlotSealer {
    let deviceKey: RightDeviceKey

    func key(binding: [UInt8], slot index: Int, passphraseKeys: [SymmetricKey]) -> SymmetricKey {
        var info = Array("ssokit-right-slot-v1".utf8) + binding
        info += withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) }
        return deviceKey.derive(info, mixing: passphraseKeys)
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
