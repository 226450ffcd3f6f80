/// The XML Signature and Encryption algorithm identifiers SSOKitSAML accepts (everything else is refused before
/// xmlsec sees the signature, so the refusal has a precise code).
enum SignatureAlgorithms {
    static let exclusiveC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
    static let envelopedSignature = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"

    static let strongSignatureMethods: Set<String> = [
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384",
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
        "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256",
        "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384",
        "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512",
    ]
    static let sha1SignatureMethods: Set<String> = [
        "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
        "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha1",
    ]
    static let strongDigestMethods: Set<String> = [
        "http://www.w3.org/2001/04/xmlenc#sha256",
        "http://www.w3.org/2001/04/xmldsig-more#sha384",
        "http://www.w3.org/2001/04/xmlenc#sha512",
    ]
    static let sha1DigestMethod = "http://www.w3.org/2000/09/xmldsig#sha1"

    static func signatureMethodAllowed(_ uri: String, insecureAllowSHA1: Bool) -> Bool {
        strongSignatureMethods.contains(uri) || (insecureAllowSHA1 && sha1SignatureMethods.contains(uri))
    }

    static func digestMethodAllowed(_ uri: String, insecureAllowSHA1: Bool) -> Bool {
        strongDigestMethods.contains(uri) || (insecureAllowSHA1 && uri == sha1DigestMethod)
    }

    static let keyTransport: Set<String> = ["http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"]
    static let contentEncryption: Set<String> = [
        "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
        "http://www.w3.org/2001/04/xmlenc#aes192-cbc",
        "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
        "http://www.w3.org/2009/xmlenc11#aes128-gcm",
        "http://www.w3.org/2009/xmlenc11#aes192-gcm",
        "http://www.w3.org/2009/xmlenc11#aes256-gcm",
    ]
}
