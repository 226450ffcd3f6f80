import Crypto
import CryptoExtras
import Foundation
import SSOKitCore
import SSOKitOIDC
import SSOKitSAML

/// The IdP's keys: an RSA-2048 key that signs ID tokens (RS256, published in the JWKS under its RFC 7638
/// thumbprint as `kid`) and an RSA-2048 key with a self-signed certificate that signs SAML Responses and
/// LogoutResponses (published in the SAML metadata).
public struct DevIdPSigningKeys: Sendable {
    /// The key file names in the data folder.
    public enum FileName {
        /// The ID-token key, PKCS#8 PEM.
        public static let oidcKey = "oidc-signing-key.pem"
        /// The SAML key, PKCS#8 PEM.
        public static let samlKey = "saml-signing-key.pem"
        /// The SAML certificate, PEM.
        public static let samlCertificate = "saml-signing-cert.pem"
    }

    let oidcKey: _RSA.Signing.PrivateKey
    /// The `kid` of the ID-token key: its JWK thumbprint (RFC 7638).
    public let oidcKeyID: String
    let samlKey: SAMLPrivateKey
    /// The SAML signing certificate, as metadata publishes it.
    public let samlCertificate: SAMLCertificate
    /// The public JWK of the ID-token key.
    let publicJWK: [String: JSONValue]

    /// Fresh keys that live only in memory (tests, and `ssokit demo`).
    public static func generate() throws(DevIdPError) -> DevIdPSigningKeys {
        let oidc = try newRSAKey()
        let saml = try newRSAKey()
        return try DevIdPSigningKeys(
            oidcKey: oidc, samlKey: saml, samlCertificatePEM: SelfSignedCertificate.pem(for: saml))
    }

    /// The keys kept in `folder` (created 0700; files 0600), generated there on first use. A certificate that is
    /// missing, or does not match the SAML key, is made anew from the key.
    public static func loadOrCreate(in folder: URL) throws(DevIdPError) -> DevIdPSigningKeys {
        let data = try DataFolder(folder)
        let oidcPEM = try keyPEM(FileName.oidcKey, in: data)
        let samlPEM = try keyPEM(FileName.samlKey, in: data)
        let oidcKey: _RSA.Signing.PrivateKey
        let samlKey: _RSA.Signing.PrivateKey
        do {
            oidcKey = try _RSA.Signing.PrivateKey(pemRepresentation: oidcPEM)
            samlKey = try _RSA.Signing.PrivateKey(pemRepresentation: samlPEM)
        } catch {
            throw DevIdPError(.keyUnavailable, "a key file in \(folder.path) is not an RSA private key in PEM")
        }
        if let certificatePEM = try data.read(FileName.samlCertificate),
            SelfSignedCertificate.matches(certificatePEM, key: samlKey),
            let keys = try? DevIdPSigningKeys(oidcKey: oidcKey, samlKey: samlKey, samlCertificatePEM: certificatePEM)
        {
            return keys
        }
        let certificatePEM = try SelfSignedCertificate.pem(for: samlKey)
        let path = folder.appendingPathComponent(FileName.samlCertificate).path
        if FileManager.default.fileExists(atPath: path), unlink(path) != 0 {
            throw DevIdPError(.dataFolderUnavailable, "cannot replace \(path)")
        }
        _ = try data.create(FileName.samlCertificate, text: certificatePEM)
        return try DevIdPSigningKeys(
            oidcKey: oidcKey, samlKey: samlKey, samlCertificatePEM: try data.read(FileName.samlCertificate) ?? "")
    }

    init(oidcKey: _RSA.Signing.PrivateKey, samlKey: _RSA.Signing.PrivateKey, samlCertificatePEM: String)
        throws(DevIdPError)
    {
        guard oidcKey.keySizeInBits >= 2048, samlKey.keySizeInBits >= 2048,
            let primitives = try? oidcKey.publicKey.getKeyPrimitives()
        else { throw DevIdPError(.keyUnavailable, "the signing keys must be RSA of 2048 bits or more") }
        let modulus = Base64URL.encode(primitives.modulus)
        let exponent = Base64URL.encode(primitives.publicExponent)
        // RFC 7638 §3.2: the required members in lexicographic order, no whitespace.
        let thumbprintInput = #"{"e":"\#(exponent)","kty":"RSA","n":"\#(modulus)"}"#
        let keyID = Base64URL.encode(SHA256.hash(data: Array(thumbprintInput.utf8)))
        do {
            self.samlKey = try SAMLPrivateKey(pem: samlKey.pkcs8PEMRepresentation, certificatePEM: samlCertificatePEM)
            self.samlCertificate = try SAMLCertificate(pem: samlCertificatePEM)
        } catch {
            throw DevIdPError(.keyUnavailable, "the SAML key and certificate could not be loaded together")
        }
        self.oidcKey = oidcKey
        self.oidcKeyID = keyID
        self.publicJWK = [
            "kty": .string("RSA"), "use": .string("sig"), "alg": .string("RS256"), "kid": .string(keyID),
            "n": .string(modulus), "e": .string(exponent),
        ]
    }

    private static func keyPEM(_ name: String, in data: DataFolder) throws(DevIdPError) -> String {
        if let existing = try data.read(name) { return existing }
        _ = try data.create(name, text: try newRSAKey().pkcs8PEMRepresentation)
        guard let created = try data.read(name) else {
            throw DevIdPError(.dataFolderUnavailable, "\(name) vanished after it was created")
        }
        return created
    }

    private static func newRSAKey() throws(DevIdPError) -> _RSA.Signing.PrivateKey {
        do {
            return try _RSA.Signing.PrivateKey(keySize: .bits2048)
        } catch {
            throw DevIdPError(.keyUnavailable, "an RSA key could not be generated")
        }
    }
}
