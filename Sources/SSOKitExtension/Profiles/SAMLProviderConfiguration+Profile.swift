import Foundation
import SSOKitCore
import SSOKitSAML

extension SAMLProviderConfiguration {
    /// Reads `protocol` `saml` ExtensionData; nil when a problem was logged.
    static func read(_ fields: PayloadFields, files: ProfileFileContext, now: Date) -> SAMLProviderConfiguration? {
        let before = fields.log.problems.count
        let spEntityID = fields.string("sp_entity_id", required: true)
        let acsURL = fields.string("acs_url", required: true)
        if let acsURL { checkURL(acsURL, key: "acs_url", fields) }
        let entityID = fields.string("idp_entity_id")
        let pinned = certificates(fields, files: files)
        let metadataURL = fields.string("idp_metadata_url")
        if let metadataURL {
            checkURL(metadataURL, key: "idp_metadata_url", fields)
            if !fields.has("idp_certificate") {
                fields.problem(
                    "idp_certificate", .missingKey,
                    "idp_metadata_url needs idp_certificate to pin the metadata's signer")
            }
        }
        let metadata = metadataDocument(fields, files: files, entityID: entityID, now: now)
        if !fields.has("idp_metadata_file") && metadataURL == nil && !fields.has("idp_certificate") {
            fields.problem(
                "idp_metadata_file", .missingKey, "saml needs idp_metadata_file, idp_metadata_url or idp_certificate")
        }
        let key = serviceProviderKey(fields, files: files)
        let verifyResponse = fields.bool("verify_response") ?? false
        guard fields.log.problems.count == before, let spEntityID, let acsURL else { return nil }
        return SAMLProviderConfiguration(
            metadata: metadata, metadataURL: metadataURL, pinnedCertificates: pinned ?? [],
            identityProviderEntityID: entityID, serviceProviderEntityID: spEntityID,
            assertionConsumerServiceURL: acsURL,
            serviceProviderKey: key, verifyResponse: verifyResponse)
    }

    private static func checkURL(_ text: String, key: String, _ fields: PayloadFields) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            url.host()?.isEmpty == false
        else {
            fields.problem(key, .invalidValue, "\(key) must be an absolute http(s) URL")
            return
        }
        if !EndpointSecurity.isAllowed(url) {
            fields.problem(key, .insecureURL, "\(key) must be https (plain http only on a loopback host)")
        }
    }

    private static func certificates(_ fields: PayloadFields, files: ProfileFileContext) -> [SAMLCertificate]? {
        guard fields.has("idp_certificate"), let pem = files.text(of: "idp_certificate", in: fields) else { return nil }
        do {
            return try SAMLCertificate.certificates(pem: pem)
        } catch {
            fields.problem("idp_certificate", .invalidFile, "the file holds no readable PEM certificate")
            return nil
        }
    }

    private static func metadataDocument(
        _ fields: PayloadFields, files: ProfileFileContext, entityID: String?, now: Date
    ) -> IdentityProviderMetadata? {
        guard fields.has("idp_metadata_file") else { return nil }
        if fields.has("idp_metadata_url") {
            fields.problem("idp_metadata_url", .conflictingKeys, "give idp_metadata_file or idp_metadata_url, not both")
            return nil
        }
        guard let bytes = files.contents(of: "idp_metadata_file", in: fields) else { return nil }
        do {
            return try IdentityProviderMetadata.parse(bytes, entityID: entityID, now: now)
        } catch {
            fields.problem("idp_metadata_file", .invalidFile, "the IdP metadata is not usable: \(error.reason)")
            return nil
        }
    }

    private static func serviceProviderKey(_ fields: PayloadFields, files: ProfileFileContext) -> SAMLPrivateKey? {
        guard fields.has("sp_key_file") else {
            if fields.has("sp_cert_file") {
                fields.problem("sp_key_file", .missingKey, "sp_cert_file needs sp_key_file")
            }
            return nil
        }
        guard let keyPEM = files.text(of: "sp_key_file", in: fields) else { return nil }
        var certificatePEM: String?
        if fields.has("sp_cert_file") {
            guard let text = files.text(of: "sp_cert_file", in: fields) else { return nil }
            certificatePEM = text
        }
        do {
            return try SAMLPrivateKey(pem: keyPEM, certificatePEM: certificatePEM)
        } catch {
            fields.problem("sp_key_file", .invalidFile, "the SP key or certificate is not usable: \(error.reason)")
            return nil
        }
    }
}
