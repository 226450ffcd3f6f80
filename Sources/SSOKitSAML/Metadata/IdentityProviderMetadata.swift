import Foundation

/// What an IdP's SAML metadata says (SAML Metadata 2.0 §2.3.2, §2.4.3): its entity ID, SSO endpoints by binding,
/// every signing certificate (several during a rollover) and whether it wants signed AuthnRequests.
public struct IdentityProviderMetadata: Sendable, Hashable {
    /// One endpoint.
    public struct Endpoint: Sendable, Hashable {
        /// The binding URI.
        public var binding: String
        /// The location URL.
        public var location: String
    }

    /// The `entityID`.
    public var entityID: String
    /// SingleSignOnService endpoints in document order.
    public var singleSignOnServices: [Endpoint]
    /// SingleLogoutService endpoints in document order.
    public var singleLogoutServices: [Endpoint]
    /// Every certificate whose KeyDescriptor is for signing (or has no `use`).
    public var signingCertificates: [SAMLCertificate]
    /// Certificates whose KeyDescriptor is for encryption.
    public var encryptionCertificates: [SAMLCertificate]
    /// `WantAuthnRequestsSigned`.
    public var wantAuthnRequestsSigned: Bool
    /// Whether a signature on the metadata was verified against a pinned certificate.
    public var signatureVerified: Bool

    /// The first SSO URL for `binding`.
    public func singleSignOnURL(binding: String) -> String? {
        singleSignOnServices.first { $0.binding == binding }?.location
    }

    /// Parses metadata. The root is an EntityDescriptor, or an EntitiesDescriptor from which the entity `entityID`
    /// (or, when nil, the only IdP) is taken. With `pinnedSigner`, the root must carry a valid enveloped signature by
    /// that certificate; `validUntil`, when present, must be after `now`.
    public static func parse(
        _ xml: [UInt8], entityID: String? = nil, pinnedSigner: SAMLCertificate? = nil, now: Date = Date(),
        limits: XMLLimits = XMLLimits()
    ) throws(SAMLError) -> IdentityProviderMetadata {
        let tree = try XMLTree.parse(xml, limits: limits)
        guard let root = tree.root else { throw SAMLError(.invalidMetadata, "the document is empty") }
        try tree.registerIDs()
        var verified = false
        if let pinnedSigner {
            guard let signature = try EnvelopedSignatureVerifier.signature(of: root) else {
                throw SAMLError(.signatureMissing, "the metadata is not signed")
            }
            try EnvelopedSignatureVerifier(certificates: [pinnedSigner], insecureAllowSHA1: false).verify(
                signature, of: root)
            verified = true
        }
        try checkValidity(root, now: now)
        let entity: XMLElement
        if root.is("EntityDescriptor", in: SAMLNamespace.metadata) {
            entity = root
        } else if root.is("EntitiesDescriptor", in: SAMLNamespace.metadata) {
            let candidates = root.children("EntityDescriptor", in: SAMLNamespace.metadata).filter { element in
                if let entityID { return element.attribute("entityID") == entityID }
                return element.firstChild("IDPSSODescriptor", in: SAMLNamespace.metadata) != nil
            }
            guard candidates.count == 1, let only = candidates.first else {
                throw SAMLError(.invalidMetadata, "the EntitiesDescriptor does not hold exactly one matching IdP")
            }
            entity = only
            try checkValidity(entity, now: now)
        } else {
            throw SAMLError(.invalidMetadata, "the root is not an EntityDescriptor")
        }
        return try read(entity, signatureVerified: verified, now: now)
    }

    private static func checkValidity(_ element: XMLElement, now: Date) throws(SAMLError) {
        if let text = element.attribute("validUntil") {
            guard let validUntil = SAMLDateTime.parse(text) else {
                throw SAMLError(.invalidMetadata, "validUntil is not a dateTime")
            }
            guard now < validUntil else { throw SAMLError(.invalidMetadata, "the metadata expired (validUntil)") }
        }
    }

    private static func read(_ entity: XMLElement, signatureVerified: Bool, now: Date) throws(SAMLError)
        -> IdentityProviderMetadata
    {
        guard let entityID = entity.attribute("entityID"), !entityID.isEmpty else {
            throw SAMLError(.invalidMetadata, "the EntityDescriptor has no entityID")
        }
        let descriptors = entity.children("IDPSSODescriptor", in: SAMLNamespace.metadata)
        guard descriptors.count == 1, let idp = descriptors.first else {
            throw SAMLError(.invalidMetadata, "the entity needs exactly one IDPSSODescriptor")
        }
        try checkValidity(idp, now: now)
        guard
            (idp.attribute("protocolSupportEnumeration") ?? "").split(separator: " ")
                .contains(where: { $0 == "\(SAMLNamespace.protocolNS)" })
        else { throw SAMLError(.invalidMetadata, "the IdP does not announce SAML 2.0 protocol support") }
        func endpoints(_ name: StaticString) throws(SAMLError) -> [Endpoint] {
            var result: [Endpoint] = []
            for element in idp.children(name, in: SAMLNamespace.metadata) {
                guard let binding = element.attribute("Binding"), let location = element.attribute("Location") else {
                    throw SAMLError(.invalidMetadata, "a \(name) lacks a Binding or a Location")
                }
                try SAMLURL.requireHTTP(location, role: "\(name) Location")
                result.append(Endpoint(binding: binding, location: location))
            }
            return result
        }
        let sso = try endpoints("SingleSignOnService")
        guard !sso.isEmpty else { throw SAMLError(.invalidMetadata, "the IdP has no SingleSignOnService") }
        var signing: [SAMLCertificate] = []
        var encryption: [SAMLCertificate] = []
        for descriptor in idp.children("KeyDescriptor", in: SAMLNamespace.metadata) {
            let use = descriptor.attribute("use")
            guard
                let data = descriptor.firstChild("KeyInfo", in: SAMLNamespace.dsig)?
                    .firstChild("X509Data", in: SAMLNamespace.dsig)
            else { continue }
            for element in data.children("X509Certificate", in: SAMLNamespace.dsig) {
                let certificate: SAMLCertificate
                do {
                    certificate = try SAMLCertificate(base64: element.textContent)
                } catch {
                    throw SAMLError(.invalidMetadata, "a KeyDescriptor holds an unreadable certificate")
                }
                if use == nil || use == "signing" { signing.append(certificate) }
                if use == nil || use == "encryption" { encryption.append(certificate) }
            }
        }
        guard !signing.isEmpty else { throw SAMLError(.invalidMetadata, "the IdP publishes no signing certificate") }
        return IdentityProviderMetadata(
            entityID: entityID, singleSignOnServices: sso, singleLogoutServices: try endpoints("SingleLogoutService"),
            signingCertificates: signing, encryptionCertificates: encryption,
            wantAuthnRequestsSigned: idp.attribute("WantAuthnRequestsSigned") == "true"
                || idp.attribute("WantAuthnRequestsSigned") == "1",
            signatureVerified: signatureVerified)
    }
}
