internal import CXMLSec

/// Signature algorithms SSOKitSAML signs with, and accepts on redirect-binding messages.
public enum SAMLSignatureAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSA PKCS#1 v1.5 with SHA-256 (the default).
    case rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    /// RSA PKCS#1 v1.5 with SHA-384.
    case rsaSHA384 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384"
    /// RSA PKCS#1 v1.5 with SHA-512.
    case rsaSHA512 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512"
    /// ECDSA with SHA-256.
    case ecdsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"
    /// ECDSA with SHA-384.
    case ecdsaSHA384 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384"
    /// ECDSA with SHA-512.
    case ecdsaSHA512 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512"
    /// RSA with SHA-1: verification only, and only when explicitly allowed.
    case rsaSHA1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1"

    /// The algorithm URI.
    public var uri: String { rawValue }

    var digestBits: Int32 {
        switch self {
        case .rsaSHA256, .ecdsaSHA256: 256
        case .rsaSHA384, .ecdsaSHA384: 384
        case .rsaSHA512, .ecdsaSHA512: 512
        case .rsaSHA1: 1
        }
    }

    var isRSA: Bool {
        switch self {
        case .rsaSHA256, .rsaSHA384, .rsaSHA512, .rsaSHA1: true
        default: false
        }
    }

    var xmlsecAlgorithm: ssokit_sign_algorithm {
        switch self {
        case .rsaSHA256, .rsaSHA1: SSOKIT_SIGN_RSA_SHA256
        case .rsaSHA384: SSOKIT_SIGN_RSA_SHA384
        case .rsaSHA512: SSOKIT_SIGN_RSA_SHA512
        case .ecdsaSHA256: SSOKIT_SIGN_ECDSA_SHA256
        case .ecdsaSHA384: SSOKIT_SIGN_ECDSA_SHA384
        case .ecdsaSHA512: SSOKIT_SIGN_ECDSA_SHA512
        }
    }

    /// The default algorithm for a key: RSA-SHA256 or ECDSA-SHA256.
    static func `default`(for key: SAMLPrivateKey) -> SAMLSignatureAlgorithm {
        key.key.family == .ec ? .ecdsaSHA256 : .rsaSHA256
    }

    func matches(_ family: XMLSecKey.Family) -> Bool { isRSA ? family == .rsa : family == .ec }
}
