import CFuzzHarness
import Foundation
import Synchronization

/// Signs and encrypts fuzzed Responses before the verifier sees them (CFuzzHarness's sealer), so mutations reach
/// the checks after signature verification and decryption. One at a time: xmlsec's key manager is not shared.
final class SAMLSealer: Sendable {
    private let sealer: Mutex<OpaquePointer>

    /// Signs with `keys/<signingKey>.key` and encrypts to `keys/<encryptionCertificate>.crt`.
    init(signingKey: String, encryptionCertificate: String) throws {
        let key = try FuzzFixtures.bytes("saml/keys/\(signingKey).key")
        let certificate = try FuzzFixtures.bytes("saml/keys/\(encryptionCertificate).crt")
        let created = key.withUnsafeBufferPointer { key in
            certificate.withUnsafeBufferPointer { certificate in
                fuzz_saml_sealer_create(key.baseAddress, key.count, certificate.baseAddress, certificate.count)
            }
        }
        guard let created else {
            throw FuzzFixtures.SetupFailure(description: "the sealer could not load its key or certificate")
        }
        sealer = Mutex(created)
    }

    /// The Response in `xml` with `layout` (FUZZ_SAML_* flags) applied, or nil when it cannot be applied.
    func seal(_ xml: ArraySlice<UInt8>, layout: Int32) -> [UInt8]? {
        sealer.withLock { sealer in
            var output: UnsafeMutablePointer<UInt8>?
            var length = 0
            let status = xml.withUnsafeBufferPointer { xml in
                fuzz_saml_seal(sealer, xml.baseAddress, xml.count, layout, &output, &length)
            }
            guard status == 0, let output else { return nil }
            defer { free(output) }
            return Array(UnsafeBufferPointer(start: output, count: length))
        }
    }
}
