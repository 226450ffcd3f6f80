internal import CCMS
import Foundation

/// Opens CMS SignedData around a profile (what MDM servers and Apple Configurator produce) with OpenSSL's CMS.
enum SignedProfileContent {
    /// The signed content and what its signature proved. Without `anchors` the signatures must still verify with
    /// the certificates the message carries (a broken signature is tampering, whoever signed); with `anchors` the
    /// signer must also chain to one of them at `now`.
    static func open(_ der: [UInt8], anchors: ProfileTrustAnchors?, now: Date) throws(ProfileError)
        -> (content: [UInt8], signature: ProfileSignature)
    {
        let at = Int64(now.timeIntervalSince1970.rounded(.down))
        var result = der.withUnsafeBufferPointer { input in
            if let anchors {
                return anchors.pem.withUnsafeBufferPointer { pem in
                    pem.withMemoryRebound(to: CChar.self) { text in
                        ssokit_cms_open(input.baseAddress, input.count, text.baseAddress, text.count, at)
                    }
                }
            }
            return ssokit_cms_open(input.baseAddress, input.count, nil, 0, at)
        }
        defer { ssokit_cms_result_free(&result) }
        switch Int(result.status) {
        case Int(SSOKIT_CMS_OK):
            guard let pointer = result.content, let subject = result.signer_subject else {
                throw ProfileError(.malformedProfile, "the signed profile could not be opened")
            }
            let content = Array(UnsafeBufferPointer(start: pointer, count: result.content_length))
            let signature: ProfileSignature =
                anchors == nil ? .signedNotVerified : .verified(signer: String(cString: subject))
            return (content, signature)
        case Int(SSOKIT_CMS_MALFORMED):
            throw ProfileError(.malformedProfile, "the profile is neither a property list, JSON, nor CMS SignedData")
        case Int(SSOKIT_CMS_NOT_SIGNED_DATA):
            throw ProfileError(.unsupportedFormat, "the CMS message is not SignedData")
        case Int(SSOKIT_CMS_DETACHED):
            throw ProfileError(.unsupportedFormat, "the CMS SignedData does not embed the profile (detached signature)")
        case Int(SSOKIT_CMS_BAD_SIGNATURE):
            throw ProfileError(
                .invalidSignature, "the profile's signature does not verify: it was altered or its signer is missing")
        case Int(SSOKIT_CMS_UNTRUSTED_SIGNER):
            throw ProfileError(
                .untrustedSigner, "the profile's signer does not chain to a trust anchor (or a certificate expired)")
        case Int(SSOKIT_CMS_BAD_ANCHORS):
            throw ProfileError(.invalidTrustAnchor, "the trust anchors hold no readable PEM certificate")
        default:
            throw ProfileError(.malformedProfile, "the signed profile could not be opened")
        }
    }
}
