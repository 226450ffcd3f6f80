import Foundation
import SSOKitSAML

extension FuzzTarget {
    /// Key and certificate loading as the CLI and services do it, on any bytes: PEM armour, DER and base64
    /// certificates, and PEM private keys alone or with a certificate that must match. A certificate that loads
    /// must load again, to the same DER, from the PEM and base64 SSOKit writes for it.
    public static let pemKeys = FuzzTarget(
        name: "pem-keys",
        summary: "SAMLCertificate (PEM, DER, base64) and SAMLPrivateKey (PEM, with a certificate) on any bytes",
        body: .sync { input in
            let text = String(decoding: input, as: UTF8.self)
            return FuzzVerdict.combining([
                reloading { () throws(SAMLError) in try SAMLCertificate(pem: text) },
                reloading { () throws(SAMLError) in try SAMLCertificate(der: input) },
                reloading { () throws(SAMLError) in try SAMLCertificate(base64: text) },
                FuzzVerdict.saml { () throws(SAMLError) in _ = try SAMLPrivateKey(pem: text) },
                FuzzVerdict.saml { () throws(SAMLError) in _ = try SAMLPrivateKey(pem: text, certificatePEM: text) },
            ])
        },
        seeds: {
            var seeds: [String: [UInt8]] = [:]
            for folder in ["saml/keys", "oidc/keys"] {
                for (name, bytes) in try FuzzFixtures.files(in: folder) { seeds["\(folder.prefix(4))-\(name)"] = bytes }
            }
            for name in ["sp", "idp-ec"] {
                let key = try FuzzFixtures.bytes("saml/keys/\(name).key")
                let certificate = try FuzzFixtures.bytes("saml/keys/\(name).crt")
                seeds["pair-\(name)"] = key + certificate
                let loaded = try SAMLCertificate(pem: String(decoding: certificate, as: UTF8.self))
                seeds["der-\(name)"] = loaded.der
                seeds["base64-\(name)"] = Array(loaded.base64.utf8)
            }
            return seeds
        })

    /// Loads a certificate, then checks that its own PEM and base64 load to the same DER.
    private static func reloading(_ load: () throws(SAMLError) -> SAMLCertificate) -> FuzzVerdict {
        let certificate: SAMLCertificate
        do {
            certificate = try load()
        } catch {
            return .rejected(error.code.description)
        }
        guard (try? SAMLCertificate(pem: certificate.pem)) == certificate,
            (try? SAMLCertificate(base64: certificate.base64)) == certificate
        else {
            return .violated("a certificate does not load again from the PEM or base64 written for it")
        }
        return .accepted
    }
}
