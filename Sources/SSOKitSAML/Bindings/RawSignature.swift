internal import CXMLSec
import Foundation

/// Signatures over raw bytes (the HTTP-Redirect binding signs the query string, Bindings §3.4.4.1).
enum RawSignature {
    static func sign(_ data: [UInt8], key: SAMLPrivateKey, algorithm: SAMLSignatureAlgorithm) throws(SAMLError)
        -> [UInt8]
    {
        guard algorithm != .rsaSHA1 else { throw SAMLError(.unsupportedAlgorithm, "SSOKit never signs with SHA-1") }
        guard algorithm.matches(key.key.family) else {
            throw SAMLError(.invalidKey, "the key does not fit the algorithm \(algorithm.uri)")
        }
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = data.withUnsafeBufferPointer { buffer in
            ssokit_raw_sign(
                key.key.pointer, algorithm.digestBits, buffer.baseAddress, buffer.count, &signature, &length)
        }
        guard status == 0, let signature else { throw SAMLError(.signingFailed, "the message could not be signed") }
        defer { free(signature) }
        return Array(UnsafeBufferPointer(start: signature, count: length))
    }

    static func verify(
        _ signature: [UInt8], over data: [UInt8], certificate: SAMLCertificate, algorithm: SAMLSignatureAlgorithm
    ) -> Bool {
        guard algorithm.matches(certificate.publicKey.family) else { return false }
        let status = data.withUnsafeBufferPointer { dataBuffer in
            signature.withUnsafeBufferPointer { signatureBuffer in
                ssokit_raw_verify(
                    certificate.publicKey.pointer, algorithm.digestBits, dataBuffer.baseAddress, dataBuffer.count,
                    signatureBuffer.baseAddress, signatureBuffer.count)
            }
        }
        return status == 0
    }
}
