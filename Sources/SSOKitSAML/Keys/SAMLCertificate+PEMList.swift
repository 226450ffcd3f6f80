extension SAMLCertificate {
    /// Every `CERTIFICATE` block of a PEM text, in order (a file with several certificates pins each of them, as
    /// during a key rollover). Throws when there is none or one cannot be read.
    public static func certificates(pem: String) throws(SAMLError) -> [SAMLCertificate] {
        let blocks = KeyPEM.blocks(labeled: "CERTIFICATE", in: pem)
        guard !blocks.isEmpty else { throw SAMLError(.invalidKey, "no PEM CERTIFICATE block found") }
        return try blocks.map { der throws(SAMLError) in try SAMLCertificate(der: der) }
    }
}
